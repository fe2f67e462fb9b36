// The one way a moment is written on every surface that shows a time of day (the Files view's tooltips
// and attempt rows, quick picks, the preview): the time of day in the user's locale ("5:24 AM", "17:24"),
// with the date when it is not today. Relative times ("3 min ago") are a description's, not this; the
// CLI writes ISO 8601 (DESIGN §5).

/**
 * A moment in ISO 8601 (UTC, milliseconds): how the CLI writes every time (DESIGN §5). A listing of 10,000
 * checkpoints asks for 10,000 times over a few days: each day's date is made once (Date's own formatting), the
 * time of day by arithmetic. Out of Date's four-digit years, Date says it all.
 */
export function isoTime(t: number): string {
  const day = Math.floor(t / DAY_MS);
  if (!Number.isInteger(t) || t < 0 || t >= YEAR_10000) return new Date(t).toISOString();
  let date = isoDays.get(day);
  if (date === undefined) isoDays.set(day, (date = new Date(day * DAY_MS).toISOString().slice(0, 11)));
  const ms = t - day * DAY_MS;
  const two = (n: number) => (n < 10 ? '0' : '') + n;
  const milli = ms % 1000;
  return `${date}${two(Math.floor(ms / 3_600_000))}:${two(Math.floor(ms / 60_000) % 60)}:${two(Math.floor(ms / 1000) % 60)}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
const DAY_MS = 86_400_000;
const YEAR_10000 = Date.UTC(10000, 0, 1);
const isoDays = new Map<number, string>();

/** "5:24 AM" today, "Dec 3, 2026, 5:24 AM" on another day (in the locale's own forms). */
export function clockTime(time: number, now: number = Date.now(), locale?: string): string {
  const d = new Date(time);
  if (Number.isNaN(d.getTime())) return '';
  const f = formatsOf(locale);
  return new Date(now).toDateString() === d.toDateString() ? f.today.format(d) : f.other.format(d);
}

/**
 * The two formats clockTime writes in, made once per locale: `toLocaleString` makes a new formatter on every call
 * (~0.1 ms here), and the Files view asks for a time on every session group and tooltip of a long timeline.
 */
function formatsOf(locale: string | undefined): { today: Intl.DateTimeFormat; other: Intl.DateTimeFormat } {
  let f = clockFormats.get(locale);
  if (!f)
    clockFormats.set(
      locale,
      (f = {
        today: new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' }),
        other: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
      }),
    );
  return f;
}
const clockFormats = new Map<string | undefined, { today: Intl.DateTimeFormat; other: Intl.DateTimeFormat }>();

/** A transcript's timestamp as ISO 8601 (what the CLI writes), or null when it is not a parsable date string. */
export function isoFromTimestamp(ts: unknown): string | null {
  const t = typeof ts === 'string' && ts ? Date.parse(ts) : NaN;
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}
