import { getPrisma } from '../db';
import { appView } from './app-view';

export async function createApp({ name }: { name: string }) {
  return appView(await getPrisma().app.create({ data: { name } }));
}
