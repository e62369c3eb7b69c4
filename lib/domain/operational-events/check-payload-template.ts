import { getPrisma } from '../../database/db';
import { invalid } from '../errors';

// A sample event in the shape templates see: every placeholder a template is likely to use resolves.
const SAMPLE = {
  type: 'endpoint.failing',
  timestamp: '2026-01-01T00:00:00.000Z',
  data: {
    event_id: 'opev_sample',
    app_id: 'app_sample',
    app_name: 'Sample app',
    endpoint_id: 'ep_sample',
    endpoint_url: 'https://example.com/webhooks',
    issue_id: 'iss_sample',
    occurred_at: '2026-01-01T00:00:00.000Z',
    consecutive_failures: 3,
    last_error_class: 'http_5xx',
    error_class: 'http_5xx',
    count: 3,
  },
};

/**
 * Renders the template against a sample with the database's own renderer (the one emission uses), so
 * a template that is not JSON after substitution is refused with the reason instead of being found
 * broken when something fails.
 */
export async function checkPayloadTemplate(template: string | null | undefined): Promise<void> {
  if (template === null || template === undefined) return;
  try {
    await getPrisma()
      .$queryRaw`SELECT hookline.render_payload_template(${template}, ${JSON.stringify(SAMPLE)}::jsonb)::text AS body`;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n').find((line) => /json/i.test(line)) : undefined;
    throw invalid(
      'payloadTemplate',
      `is not valid JSON once its {{placeholders}} are filled in${reason ? ` (${reason.trim()})` : ''}; ` +
        'put placeholders inside JSON strings, e.g. {"text": "{{type}} on {{data.endpoint_url}}"}',
    );
  }
}
