// Durations as people write them in configuration: "0", "500ms", "5s", "5m", "2h", "1d".
const unitMs: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) throw new Error(`"${text}" is not a duration (examples: 0, 500ms, 5s, 5m, 2h, 1d)`);
  const amount = Number(match[1]);
  if (match[2] === undefined && amount !== 0) {
    throw new Error(`"${text}" needs a unit (ms, s, m, h or d)`);
  }
  return Math.round(amount * unitMs[match[2] ?? 'ms']!);
}

export function parseDurationList(text: string): number[] {
  return text.split(',').map(parseDuration);
}

export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
