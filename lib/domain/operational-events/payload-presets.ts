// Payload templates for the two receivers operators ask for first (the Operations page's presets).
// Placeholders (hookline.render_operational_payload, migration 20261126120000_alert_notifications):
// {{type}}, {{timestamp}}, {{data.<field>}}, and {{action}} ("trigger", or "resolve" for
// endpoint.recovered, alert.resolved and issue.resolved), {{dedup_key}} (the id, else the
// event's) and {{emoji}} (a siren only for what is wrong). data.summary is one line with only the
// values the event has; data.dashboard_url the dashboard page of its issue (else endpoint, else jobs).

/** Slack incoming webhook: `text` is the notification's fallback, `blocks` the message. */
export const SLACK_PRESET = JSON.stringify({
  text: '{{emoji}} {{data.summary}}',
  blocks: [
    {
      type: 'section',
      text: { type: 'mrkdwn', text: '{{emoji}} {{data.summary}}\n<{{data.dashboard_url}}|Open in Hookline>' },
    },
  ],
});

/**
 * PagerDuty Events API v2 (POST https://events.pagerduty.com/v2/enqueue): a trigger opens an alert
 * under its dedup_key, a resolve with the same key closes it. Subscribe it to the event types that
 * open and close issues; the routing key is the integration's.
 */
export const PAGERDUTY_PRESET = JSON.stringify({
  routing_key: 'YOUR_INTEGRATION_KEY',
  event_action: '{{action}}',
  dedup_key: '{{dedup_key}}',
  payload: {
    summary: '{{data.summary}}',
    source: 'hookline',
    severity: 'error',
    timestamp: '{{timestamp}}',
    component: '{{data.endpoint_url}}',
    group: '{{data.app_name}}',
    class: '{{type}}',
  },
  client: 'Hookline',
  client_url: '{{data.dashboard_url}}',
  links: [{ href: '{{data.dashboard_url}}', text: 'Open in Hookline' }],
});

/** The event types whose notifications open, remind of and close issues: what PagerDuty should get. */
export const PAGERDUTY_EVENT_TYPES = [
  'endpoint.failing',
  'endpoint.recovered',
  'endpoint.circuit_opened',
  'delivery.dead',
  'alert.fired',
  'alert.resolved',
  'issue.reminder',
  'issue.reopened',
  'issue.resolved',
];
