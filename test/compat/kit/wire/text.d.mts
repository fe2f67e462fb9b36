export function textOf(content: unknown): string;
