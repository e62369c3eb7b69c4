-- A background job that ends (succeeded, failed or cancelled; migration 20261124120000_jobs) records the
-- operational event job.finished (migration 20261124130000_operational_events), in the transaction that
-- ends it, whoever ends it: the worker's last batch, a failure, or an operator's cancel. Jobs are few;
-- the trigger fires on that one transition of a job row only.
CREATE FUNCTION hookline.emit_job_finished() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM hookline.emit_operational_event(
    NEW.app_id, 'job.finished',
    jsonb_build_object('job_id', NEW.id, 'kind', NEW.kind, 'state', NEW.state, 'total', NEW.total,
                       'processed', NEW.processed, 'error', NEW.error, 'params', NEW.params,
                       'created_at', NEW.created_at, 'finished_at', NEW.finished_at));
  RETURN NULL;
END $$;

CREATE TRIGGER jobs_finished AFTER UPDATE OF state ON hookline.jobs
  FOR EACH ROW
  WHEN (OLD.state IN ('queued', 'running') AND NEW.state IN ('succeeded', 'failed', 'cancelled'))
  EXECUTE FUNCTION hookline.emit_job_finished();
