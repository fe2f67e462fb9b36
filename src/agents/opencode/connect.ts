// Connect for OpenCode: the plugin file of plugin.ts in `.opencode/plugins/` (OpenCode has no
// command hooks; a project plugin is the documented way in). A file of that name that is not ours is
// left alone. OpenCode loads plugins at startup: a running OpenCode picks ours up when restarted.
import * as path from 'node:path';
import { detectEvidence } from '../common/evidence';
import { connectOwned, disconnectOwned, ownedState } from '../common/ownedFiles';
import type { ConnectorParts } from '../common/connector';
import { ENGLISH } from '../../shared/l10n';
import { OPENCODE_PLUGIN_REL, opencodePlugin } from './plugin';

/** `name`: the agent's name, for the note about a file of the user's own. */
export const opencodeConnector = (name: string): ConnectorParts => ({
  files: (workspace) => [path.join(workspace, ...OPENCODE_PLUGIN_REL.split('/'))],
  connect(workspace, target, l10n = ENGLISH) {
    const r = connectOwned(workspace, [{ rel: OPENCODE_PLUGIN_REL, text: opencodePlugin(target) }], name, l10n);
    r.notes.push(
      l10n.t('OpenCode loads plugins when it starts: restart a running OpenCode to record it. opencode --pure runs without plugins.'),
    );
    return r;
  },
  disconnect: (workspace) => disconnectOwned(workspace, [OPENCODE_PLUGIN_REL]),
  state: (workspace, target) => ownedState(workspace, [{ rel: OPENCODE_PLUGIN_REL, text: opencodePlugin(target) }]),
  detect: (workspace, env, home) =>
    detectEvidence(workspace, env, home, { workspace: ['.opencode'], home: ['.config/opencode'], binaries: ['opencode'] }),
});
