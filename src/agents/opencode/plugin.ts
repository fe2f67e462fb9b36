// The plugin file Connect writes into the project's OpenCode plugin folder. OpenCode loads every
// `*.js` / `*.ts` of `.opencode/plugins/` (its docs; the loader globs `{plugin,plugins}/*.{ts,js}`)
// at startup and calls each exported function with `{ project, client, $, directory, worktree }`
// (newer versions read a default export `{id, server}` instead — ours is a function carrying both);
// the hooks it returns run inside OpenCode. Ours hands each event to `agent-rewind hook opencode
// <event>` as a JSON payload on stdin (the format: hookPayload.ts) and waits for that process — the
// before of a tool must be recorded before the tool writes — but never longer than TIMEOUT_MS, and
// it never throws: a failure or a timeout is a line in the store's errors.log, and OpenCode goes on.
import { CONNECT_MARKER } from '../common/hookCommand';
import type { HookTarget } from '../common/connector';
import { STORE_FILE } from '../../core/storeFiles/names';

export const OPENCODE_PLUGIN_REL = '.opencode/plugins/agent-rewind.js';

/** A little above the hook's own stdin deadline (18 s): the hook gives up first and says why. */
export const OPENCODE_PLUGIN_TIMEOUT_MS = 20000;

const q = (v: unknown) => JSON.stringify(v);

export function opencodePlugin(target: HookTarget): string {
  return `// Agent Rewind's recorder for OpenCode, written by "Agent Rewind: Connect Agents…" (Disconnect removes it).
// It hands each OpenCode event to the Agent Rewind CLI (payload on stdin) and never blocks or fails
// OpenCode: errors and timeouts go to the store's errors.log. Marker: ${CONNECT_MARKER}
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { join } from "node:path";

const NODE = ${q(target.node)};
const CLI = ${q(target.cli)};
const STORE = ${q(target.store)};
const ENV = ${q(target.env ?? {})};
const TIMEOUT_MS = ${OPENCODE_PLUGIN_TIMEOUT_MS};

function logError(message) {
  try {
    appendFileSync(join(STORE, ${JSON.stringify(STORE_FILE.errors)}), JSON.stringify({ time: new Date().toISOString(), message: "opencode plugin: " + message }) + "\\n");
  } catch {
    // never fail OpenCode, not even on a full disk
  }
}

/** Runs \`hook opencode <event>\` with the payload on stdin; resolves when it ends or after TIMEOUT_MS, never rejects. */
function send(event, payload) {
  return new Promise((resolve) => {
    let timer;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve();
    };
    try {
      const child = spawn(NODE, [CLI, "hook", "opencode", event, "--store", STORE, ${q(CONNECT_MARKER)}], {
        stdio: ["pipe", "ignore", "ignore"],
        env: { ...process.env, ...ENV },
        windowsHide: true,
      });
      timer = setTimeout(() => {
        logError(event + ": the hook did not finish within " + TIMEOUT_MS / 1000 + " s; OpenCode went on");
        try {
          child.kill();
        } catch {}
        finish();
      }, TIMEOUT_MS);
      child.on("error", (e) => {
        logError(event + ": " + e.message);
        finish();
      });
      child.on("close", finish);
      child.stdin.on("error", () => {});
      child.stdin.end(JSON.stringify({ event, ...payload }));
    } catch (e) {
      logError(event + ": " + (e && e.message));
      finish();
    }
  });
}

/** Text of the user's message: its text parts, without the ones OpenCode adds itself. */
function promptOf(parts) {
  return (Array.isArray(parts) ? parts : [])
    .filter((p) => p && p.type === "text" && !p.synthetic && typeof p.text === "string")
    .map((p) => p.text)
    .join("\\n");
}

async function AgentRewind({ directory, worktree }) {
  const where = { directory, worktree };
  /** A tool's args by call id: tool.execute.after may come without them. */
  const argsOf = new Map();
  const guard = (fn) => async (...a) => {
    try {
      await fn(...a);
    } catch (e) {
      logError("plugin: " + (e && e.message));
    }
  };
  return {
    "chat.message": guard(async (input, output) => {
      await send("chat.message", { ...where, sessionID: input.sessionID, messageID: input.messageID, prompt: promptOf(output && output.parts) });
    }),
    "tool.execute.before": guard(async (input, output) => {
      const args = (output && output.args) || {};
      argsOf.set(input.callID, args);
      await send("tool.execute.before", { ...where, sessionID: input.sessionID, tool: input.tool, callID: input.callID, args });
    }),
    "tool.execute.after": guard(async (input, output) => {
      const args = input.args || argsOf.get(input.callID) || {};
      argsOf.delete(input.callID);
      await send("tool.execute.after", {
        ...where,
        sessionID: input.sessionID,
        tool: input.tool,
        callID: input.callID,
        args,
        title: output && output.title,
        metadata: output && output.metadata,
      });
    }),
    event: guard(async ({ event }) => {
      const props = (event && event.properties) || {};
      if (event.type === "session.created" || event.type === "session.deleted") {
        const info = props.info || {};
        await send(event.type, { ...where, directory: info.directory || directory, sessionID: info.id });
      } else if (event.type === "session.idle") {
        await send("session.idle", { ...where, sessionID: props.sessionID });
      }
    }),
  };
}

// One export, read by both of OpenCode's loaders: the older calls every export as a plugin function;
// the newer wants a default export carrying an \`id\` and a \`server\` function.
AgentRewind.id = "agent-rewind";
AgentRewind.server = AgentRewind;
export default AgentRewind;
`;
}
