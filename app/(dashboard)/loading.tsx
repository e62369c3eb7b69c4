import { Loading } from '@/components/ui/states';

export default function DashboardLoading() {
  return <Loading />;
}
