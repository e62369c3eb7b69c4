import type { Message } from '../../generated/prisma/client';
import { countMessageOutcomes } from './count-message-outcomes';
import { messageView } from './message-view';

/** Messages as the list shows them: each with its deliveries counted by state. */
export async function withOutcomes(appId: string, rows: Message[]) {
  const views = rows.map(messageView);
  const outcomes = await countMessageOutcomes(
    appId,
    views.map((view) => view.id),
  );
  return { data: views.map((view) => ({ ...view, outcome: outcomes.get(view.id)! })) };
}
