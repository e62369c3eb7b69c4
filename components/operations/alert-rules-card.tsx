'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { alertRuleKeys, alertRulesQuery, createAlertRule, deleteAlertRule } from '@/lib/client/queries/operations';
import type { AlertRule, AlertRuleKind } from '@/lib/contract/schemas/operations';
import { AppSelect } from '../filters/app-select';
import { formatRelative } from '../format';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { Field, Input, Select } from '../ui/field';
import { Empty, ErrorState, InlineError, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';

const KINDS: Record<AlertRuleKind, { label: string; unit: string }> = {
  success_rate_below: { label: 'Success rate below', unit: '%' },
  oldest_waiting_above: { label: 'Oldest waiting delivery older than', unit: 's' },
  dead_per_hour_above: { label: 'Dead deliveries per hour above', unit: '' },
};

export function describeAlertRule(rule: Pick<AlertRule, 'kind' | 'threshold' | 'windowMinutes'>): string {
  const { label, unit } = KINDS[rule.kind];
  const window = rule.kind === 'success_rate_below' ? ` over ${rule.windowMinutes} min` : '';
  return `${label} ${rule.threshold}${unit ? ` ${unit}` : ''}${window}`;
}

export function AlertRulesCard() {
  const [appId, setAppId] = useState<string | undefined>(undefined);
  const rules = useQuery(alertRulesQuery(appId ?? ''));
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<AlertRuleKind>('success_rate_below');
  const [threshold, setThreshold] = useState('95');
  const [windowMinutes, setWindowMinutes] = useState('15');
  const refresh = () => queryClient.invalidateQueries({ queryKey: alertRuleKeys.all });
  const create = useMutation({
    mutationFn: () =>
      createAlertRule(appId!, {
        kind,
        threshold: Number(threshold),
        ...(kind === 'success_rate_below' ? { windowMinutes: Number(windowMinutes) } : {}),
      }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (rule: AlertRule) => deleteAlertRule(rule.appId, rule.id),
    onSuccess: refresh,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Card>
      <CardHeader
        title="Alert rules"
        subtitle="Per app, from the rollups, checked once a minute: each firing is an operational event and an issue"
        actions={<AppSelect value={appId} onChange={setAppId} />}
      />
      {!appId ? (
        <Empty title="Choose an app to see its alert rules" />
      ) : (
        <div>
          {rules.isPending ? (
            <Loading label="Loading alert rules…" />
          ) : rules.isError ? (
            <ErrorState error={rules.error} retry={() => void rules.refetch()} />
          ) : rules.data.data.length === 0 ? (
            <Empty title="No alert rules for this app" />
          ) : (
            <div className="overflow-x-auto">
              <Table data-testid="alert-rules-table">
                <thead>
                  <tr>
                    <Th>Condition</Th>
                    <Th>State</Th>
                    <Th className="hidden sm:table-cell">Last value</Th>
                    <Th className="hidden sm:table-cell">Checked</Th>
                    <Th />
                  </tr>
                </thead>
                <tbody>
                  {rules.data.data.map((rule) => (
                    <Tr key={rule.id} data-testid="alert-rule-row">
                      <Td>{describeAlertRule(rule)}</Td>
                      <Td>{rule.firing ? <Badge tone="fail">firing</Badge> : <Badge tone="ok">ok</Badge>}</Td>
                      <Td className="tabular hidden text-xs sm:table-cell">
                        {rule.lastValue === null ? '–' : rule.lastValue.toFixed(1)}
                      </Td>
                      <Td className="hidden text-xs text-zinc-500 sm:table-cell">
                        {formatRelative(rule.lastEvaluatedAt)}
                      </Td>
                      <Td className="text-right">
                        <Button size="sm" variant="ghost" className="text-red-700" onClick={() => remove.mutate(rule)}>
                          Delete
                        </Button>
                      </Td>
                    </Tr>
                  ))}
                </tbody>
              </Table>
            </div>
          )}
          <form onSubmit={submit} className="flex flex-wrap items-end gap-2 border-t border-zinc-100 px-4 py-3">
            <Field label="When">
              <Select value={kind} onChange={(e) => setKind(e.target.value as AlertRuleKind)} aria-label="Rule kind">
                {Object.entries(KINDS).map(([value, { label }]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label={`Threshold${KINDS[kind].unit ? ` (${KINDS[kind].unit})` : ''}`}>
              <Input
                className="w-24"
                type="number"
                min={0}
                step="any"
                required
                value={threshold}
                onChange={(e) => setThreshold(e.target.value)}
              />
            </Field>
            {kind === 'success_rate_below' ? (
              <Field label="Window (min)">
                <Input
                  className="w-20"
                  type="number"
                  min={1}
                  max={1440}
                  required
                  value={windowMinutes}
                  onChange={(e) => setWindowMinutes(e.target.value)}
                />
              </Field>
            ) : null}
            <Button type="submit" variant="primary" disabled={create.isPending}>
              Add rule
            </Button>
            <InlineError error={create.error ?? remove.error} />
          </form>
        </div>
      )}
    </Card>
  );
}
