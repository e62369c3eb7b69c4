import { invalid } from '../domain/errors';
import { idempotencyKeyHeader } from '../contract/schemas/messages';

/** The Idempotency-Key header, validated; undefined when absent. */
export function idempotencyKeyOf(request: Request): string | undefined {
  const value = request.headers.get('idempotency-key');
  if (value === null) return undefined;
  const parsed = idempotencyKeyHeader.safeParse(value);
  if (!parsed.success) throw invalid('Idempotency-Key', parsed.error.issues[0]?.message ?? 'is invalid');
  return parsed.data;
}
