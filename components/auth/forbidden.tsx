import { Card } from '../ui/card';
import { PageHeader } from '../ui/page-header';

/** What a page shows a member whose role may not open it (the server renders nothing else). */
export function Forbidden({ title, role, permission }: { title: string; role: string; permission: string }) {
  return (
    <div>
      <PageHeader title={title} />
      <Card className="p-5" data-testid="forbidden">
        <p className="text-sm text-zinc-700">
          The {role} role may not open this page: it needs the &ldquo;{permission}&rdquo; permission. Ask an owner for
          another role.
        </p>
      </Card>
    </div>
  );
}
