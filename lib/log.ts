// Structured JSON logs, one object per line on stdout, so they can be shipped and queried as-is.
type Level = 'debug' | 'info' | 'warn' | 'error';
const levelRank: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

let minimumRank = levelRank[(process.env.HOOKLINE_LOG_LEVEL as Level | undefined) ?? 'info'] ?? levelRank.info;

export function setLogLevel(level: Level): void {
  minimumRank = levelRank[level];
}

export type Logger = Record<Level, (message: string, fields?: Record<string, unknown>) => void> & {
  child(fields: Record<string, unknown>): Logger;
};

export function createLogger(base: Record<string, unknown> = {}): Logger {
  const write = (level: Level) => (message: string, fields?: Record<string, unknown>) => {
    if (levelRank[level] < minimumRank) return;
    const line = { time: new Date().toISOString(), level, msg: message, ...base, ...fields };
    process.stdout.write(`${JSON.stringify(line, errorReplacer)}\n`);
  };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (fields) => createLogger({ ...base, ...fields }),
  };
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const withCode = value as Error & { code?: unknown };
    return { name: value.name, message: value.message, code: withCode.code };
  }
  return value;
}
