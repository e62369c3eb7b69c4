import Link from 'next/link';

export default function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-2">
      <h1 className="text-lg font-semibold">Not found</h1>
      <p className="text-sm text-zinc-500">Nothing lives at this address.</p>
      <Link href="/overview" className="text-sm underline">
        Back to the overview
      </Link>
    </main>
  );
}
