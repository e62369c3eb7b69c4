import type { Endpoint } from '@/lib/contract/schemas/endpoints';

/** What every dialog of the endpoint page's actions gets. */
export interface EndpointDialogProps {
  endpoint: Endpoint;
  onClose: () => void;
  /** Refreshes what an action changed: the endpoint, its deliveries and the stats. */
  onDone: () => Promise<unknown>;
}

/** The dialogs that start a background job also refresh the app's job list when it starts. */
export interface EndpointJobDialogProps extends EndpointDialogProps {
  onJobStarted: () => unknown;
}
