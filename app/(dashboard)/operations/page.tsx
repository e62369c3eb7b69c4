import type { Metadata } from 'next';
import { AlertRulesCard } from '@/components/operations/alert-rules-card';
import { OperationalEndpointsCard } from '@/components/operations/operational-endpoints-card';
import { PageHeader } from '@/components/ui/page-header';
import { Forbidden } from '@/components/auth/forbidden';
import { pageAccess } from '@/lib/http/auth/page-permission';
import { refusalOf } from '@/lib/http/permissions';

export const metadata: Metadata = { title: 'Operations' };

export default async function OperationsPage() {
  const access = await pageAccess('/operations');
  if (!access.allowed) return <Forbidden title="Operations" role={access.session.role} refusal={access.refusal} />;
  return (
    <div className="space-y-4">
      <PageHeader
        title="Operations"
        subtitle="Tell people when things break: operational endpoints (webhooks, Slack, PagerDuty) and alert rules"
      />
      {/* Deployment-wide: not for a member held to some apps, who keeps its apps' alert rules. */}
      {refusalOf(access.session, 'listOperationalEndpoints') ? null : <OperationalEndpointsCard />}
      <AlertRulesCard />
    </div>
  );
}
