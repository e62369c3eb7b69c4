// A process of its own that takes rate-limit tokens the way a web process does (its own Prisma
// client and pool): `node --import tsx take-tokens.ts <key> <rate> <count> <nowMs>` takes `count`
// tokens at once for `key` at the given clock, and prints the seconds-to-wait answers as JSON.
import { takeToken } from '../../../lib/http/rate-limit';
import { getPrisma } from '../../../lib/database/db';

const [key, rate, count, now] = process.argv.slice(2);
const prisma = getPrisma();
const answers = await Promise.all(
  Array.from({ length: Number(count) }, () => takeToken(key!, Number(rate), { prisma, now: Number(now) })),
);
process.stdout.write(`${JSON.stringify(answers)}\n`);
await prisma.$disconnect();
