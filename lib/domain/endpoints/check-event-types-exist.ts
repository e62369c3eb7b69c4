import { getPrisma } from '../../database/db';
import { invalid } from '../errors';

/** An endpoint may only subscribe to event types the app has (a typo would silently receive nothing). */
export async function checkEventTypesExist(appId: string, names: string[]): Promise<string[]> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return unique;
  const found = await getPrisma().eventType.findMany({
    where: { appId, name: { in: unique } },
    select: { name: true },
  });
  const known = new Set(found.map((row) => row.name));
  const index = names.findIndex((name) => !known.has(name));
  if (index !== -1)
    throw invalid(`eventTypes.${index}`, `event type ${JSON.stringify(names[index])} does not exist in this app`);
  return unique;
}
