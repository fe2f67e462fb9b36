// Rules for PowerShell cmdlets, by verb: web requests that send data and publishing are
// irreversible/high, item cmdlets (`Remove-Item`, `Set-Content`…) change files (see fileRules),
// `Get-`/`Select-`/`Test-`… are none, other changing verbs are irreversible/low. Native commands
// (`git`, `npm`…) fall through to the other rules.
import type { Ctx } from './commandContext';
import { fileVerdict } from './fileRules';
import { high, low, NONE, type Verdict } from './verdict';

export function powershellVerdict(cmd: string, args: string[], ctx: Ctx): Verdict | null {
  if (/^(invoke-webrequest|invoke-restmethod|iwr|irm)$/.test(cmd)) {
    const mi = args.findIndex((a) => /^-method$/i.test(a));
    const method = mi >= 0 ? (args[mi + 1] ?? '').toUpperCase() : null;
    if (method === 'GET' || method === 'HEAD') return NONE;
    if (method || args.some((a) => /^-(body|infile|form)$/i.test(a))) return high(`${cmd} sends data to a server`);
    return NONE;
  }
  if (/^(send-mailmessage|publish-module|publish-script|publish-psresource|push-nugetpackage)$/.test(cmd))
    return high(`${cmd} sends data off this machine`);
  if (/^(invoke-expression|iex|start-process|invoke-command|icm|enter-pssession|new-pssession)$/.test(cmd))
    return low(`${cmd} runs code we cannot see into`);
  if (/^(stop-process|kill|spps|restart-service|stop-service|start-service|set-service|restart-computer|stop-computer)$/.test(cmd))
    return high(`${cmd} changes running processes or services`);
  if (
    /^(remove-item|ri|del|erase|rd|rmdir|set-content|sc|add-content|ac|new-item|ni|mkdir|md|copy-item|cpi|copy|cp|move-item|mi|move|mv|rename-item|rni|ren|out-file|clear-content|clc|expand-archive|compress-archive|tee-object|tee)$/.test(
      cmd,
    )
  ) {
    return fileVerdict(
      args.filter((a) => !a.startsWith('-')),
      ctx,
    );
  }
  if (
    /^(get|select|where|foreach|format|measure|sort|group|test|write|out-host|out-string|out-null|convertto|convertfrom|compare|resolve|split|join|read|find|show|import-module|start-sleep|set-location|push-location|pop-location)(-|$)/.test(
      cmd,
    ) ||
    /^(ls|dir|gci|cat|gc|type|echo|pwd|gl|cd|sl|select|where|\?|%|foreach|sleep|cls|clear|gm|gcm|measure|fl|ft|sls)$/.test(cmd)
  )
    return NONE;
  if (
    /^(set|new|remove|add|clear|register|unregister|install|uninstall|enable|disable|update|grant|revoke|import|export|save|sync|publish|invoke|start|stop|restart|suspend|resume|send|connect|disconnect|mount|dismount|approve|deny|deploy)-/.test(
      cmd,
    )
  )
    return low(`${cmd} changes something we do not record`);
  return null;
}
