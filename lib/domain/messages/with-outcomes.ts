import type { Message } from '../../generated/prisma/client';
import { countMessageOutcomes } from './count-message-outcomes';
import { messageView } from './message-view';

/** Messages as the list shows them: each with its deliveries counted by state. */
export async function withOutcomes(appId: string, rows: Message[]) {
  const outcomes = await countMessageOutcomes(
    appId,
    rows.map((row) => row.id),
  );
  return { data: rows.map((row) => ({ ...messageView(row), outcome: outcomes.get(row.id)! })) };
}
