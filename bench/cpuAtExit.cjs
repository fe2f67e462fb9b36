// Preloaded (`node --require`) by bench/lib.mjs timeNode: at exit, writes the CPU time this process used
// (user + system, all threads, in ms) to fd 3, a pipe the bench reads. Nothing else: the measured command
// runs and prints as it would.
'use strict';
process.on('exit', () => {
  const u = process.resourceUsage();
  require('node:fs').writeSync(3, `${(u.userCPUTime + u.systemCPUTime) / 1000}\n`);
});
