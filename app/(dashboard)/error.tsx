'use client';
import { ErrorState } from '@/components/ui/states';

export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorState error={error} retry={reset} />;
}
