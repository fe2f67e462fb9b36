// Rules for commands that talk to other machines: `curl`/`wget`/httpie are none for a download
// (like a web fetch) and irreversible/high when they send data or use a method other than
// GET/HEAD/OPTIONS; `rsync`/`scp` to or from a host, `ssh`, mail and message senders are
// irreversible/high; a local `rsync` only changes files (rewindable).
import { high, NONE, REWINDABLE, type Verdict } from './verdict';

const NETWORK = new Set([
  'ssh',
  'scp',
  'sftp',
  'ftp',
  'lftp',
  'telnet',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'mail',
  'mailx',
  'sendmail',
  'mutt',
  'msmtp',
  'swaks',
  'rclone',
  's3cmd',
  'gsutil',
  'azcopy',
  'mosquitto_pub',
  'kcat',
  'kafkacat',
  'grpcurl',
  'websocat',
  'wscat',
]);

/** Commands whose output is a download: piped into a shell, it is code from the network. */
export const FETCHERS = new Set(['curl', 'wget', 'http', 'https', 'iwr', 'irm', 'fetch']);

function curlVerdict(cmd: string, args: string[]): Verdict {
  let method: string | null = null;
  let sends = false;
  const shortWithValue = new Set('oXdFTHuAebcKwxmrECYyzDPQtUhS'.split('').filter((c) => c !== 'h' && c !== 'S'));
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--')) {
      const [name, val] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (name === '--request' || name === '--method') method = (val ?? args[++i] ?? '').toUpperCase();
      else if (
        /^--(data|data-.*|form|form-.*|upload-file|json|post-data|post-file|body-data|body-file|mail-rcpt|mail-from|mail-auth|post301|post302|post303|upload)$/.test(
          name,
        )
      ) {
        sends = true;
        if (val === undefined && name !== '--post301' && name !== '--post302' && name !== '--post303') i++;
      } else if (
        /^--(output|header|user|user-agent|referer|cookie|cookie-jar|config|write-out|proxy|max-time|retry|connect-timeout|output-dir|url|resolve|cacert|cert|key|range|interface|limit-rate|output-document|directory-prefix|timeout|tries|level|accept|reject|header|load-cookies|save-cookies)$/.test(
          name,
        ) &&
        val === undefined
      )
        i++;
      continue;
    }
    if (a.startsWith('-') && a.length > 1 && cmd === 'curl') {
      for (let k = 1; k < a.length; k++) {
        const f = a[k]!;
        if (shortWithValue.has(f)) {
          const v = k + 1 < a.length ? a.slice(k + 1) : args[++i];
          if (f === 'X') method = (v ?? '').toUpperCase();
          if (f === 'd' || f === 'F' || f === 'T') sends = true;
          break;
        }
      }
      continue;
    }
    if (cmd !== 'curl' && /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/i.test(a) && method === null) method = a.toUpperCase();
    else if (cmd !== 'curl' && cmd !== 'wget' && /^[^=:/]+(==|=|:=|@)/.test(a)) sends = true; // httpie items
  }
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return NONE;
  if (method || sends) return high(`${cmd} sends data (${method ?? 'POST'}) to a server`);
  return NONE; // a download, like a web fetch
}

/** Network commands; null when `cmd` is none of them. */
export function networkRules(cmd: string, args: string[]): Verdict | null {
  if (cmd === 'curl' || cmd === 'wget' || cmd === 'http' || cmd === 'https' || cmd === 'xh' || cmd === 'httpie' || cmd === 'curlie')
    return curlVerdict(cmd, args);
  if (cmd === 'rsync' || cmd === 'scp') {
    if (!args.some((a) => !a.startsWith('-') && /^[^/]*:/.test(a) && !/^[A-Za-z]:[\\/]/.test(a))) return REWINDABLE;
    return high(`${cmd} copies files to or from another machine`);
  }
  if (NETWORK.has(cmd)) return high(`${cmd} talks to another machine`);
  return null;
}
