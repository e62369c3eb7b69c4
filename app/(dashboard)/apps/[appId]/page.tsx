import { redirect } from 'next/navigation';

/** Opening an app lands on its endpoints, where the work is; its settings (rename, delete) have a tab. */
export default async function AppPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  redirect(`/apps/${encodeURIComponent(appId)}/endpoints`);
}
