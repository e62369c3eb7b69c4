// The internal app that owns operational endpoints and the messages of operational events
// (hookline.operations_app_id(), migration 20261124130000_operational_events). Its endpoints are the
// operator's subscriptions; it is never a customer's app.
export const OPERATIONS_APP_ID = 'app_hookline_ops';
