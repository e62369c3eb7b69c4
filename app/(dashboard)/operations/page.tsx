import type { Metadata } from 'next';
import { AlertRulesCard } from '@/components/operations/alert-rules-card';
import { OperationalEndpointsCard } from '@/components/operations/operational-endpoints-card';
import { PageHeader } from '@/components/ui/page-header';

export const metadata: Metadata = { title: 'Operations' };

export default function OperationsPage() {
  return (
    <div className="space-y-4">
      <PageHeader
        title="Operations"
        subtitle="Tell people when things break: operational endpoints (webhooks, Slack, PagerDuty) and alert rules"
      />
      <OperationalEndpointsCard />
      <AlertRulesCard />
    </div>
  );
}
