// The one way a moment is written on every surface that shows a time of day (the Files view's tooltips
// and attempt rows, quick picks, the preview): the time of day in the user's locale ("5:24 AM", "17:24"),
// with the date when it is not today. Relative times ("3 min ago") are a description's, not this; the
// CLI writes ISO 8601 (DESIGN §5).

/** "5:24 AM" today, "Dec 3, 2026, 5:24 AM" on another day (in the locale's own forms). */
export function clockTime(time: number, now: number = Date.now(), locale?: string): string {
  const d = new Date(time);
  if (Number.isNaN(d.getTime())) return '';
  return new Date(now).toDateString() === d.toDateString()
    ? d.toLocaleTimeString(locale, { hour: 'numeric', minute: '2-digit' })
    : d.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A transcript's timestamp as ISO 8601 (what the CLI writes), or null when it is not a parsable date string. */
export function isoTime(ts: unknown): string | null {
  const t = typeof ts === 'string' && ts ? Date.parse(ts) : NaN;
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}
