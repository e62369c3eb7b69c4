import { Card } from '../ui/card';
import { PageHeader } from '../ui/page-header';

/**
 * What a page shows a member who may not open it (the server renders nothing else): its role lacks
 * `permission`, or (no permission named) it is held to some apps and the page concerns the whole
 * deployment.
 */
export function Forbidden({
  title,
  role,
  refusal,
}: {
  title: string;
  role: string;
  refusal: { permission: string } | { heldToApps: true };
}) {
  return (
    <div>
      <PageHeader title={title} />
      <Card className="p-5" data-testid="forbidden">
        <p className="text-sm text-zinc-700">
          {'permission' in refusal ? (
            <>
              The {role} role may not open this page: it needs the &ldquo;{refusal.permission}&rdquo; permission. Ask an
              owner for another role.
            </>
          ) : (
            <>
              Your {role} role is held to some apps, and this page concerns the whole deployment. Ask an owner for
              access to every app.
            </>
          )}
        </p>
      </Card>
    </div>
  );
}
