import Link from 'next/link';

// What notFound() shows below /portal, inside the portal's shell (the root one points at the dashboard,
// which means nothing to a customer).
export default function PortalNotFound() {
  return (
    <div className="px-4 py-12 text-center" data-testid="portal-not-found">
      <h1 className="text-lg font-semibold text-zinc-900">Not found</h1>
      <p className="mt-1 text-sm text-zinc-500">Nothing with this id belongs to your webhooks.</p>
      <Link href="/portal" className="mt-3 inline-block text-sm underline">
        Back to your endpoints
      </Link>
    </div>
  );
}
