-- Who may still read a live event stream changes when a session ends (sign-out, a password reset, a
-- revocation, an expired session better-auth deletes), a borrower leaves a loan, a member leaves a team,
-- or a loan is deleted. Each of these tells the streams at once with NOTIFY on `coverly_access`, sent by
-- the database itself whichever code path (better-auth's, ours, a cascade) removed the row, and delivered
-- on commit only. The payload carries ids only: `user:<userId>` or `loan:<loanId>` (decision 020).
CREATE FUNCTION coverly_signal_access() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'loan' THEN
    PERFORM pg_notify('coverly_access', 'loan:' || OLD.id::text);
  ELSE
    PERFORM pg_notify('coverly_access', 'user:' || OLD.user_id);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER session_signal_access AFTER DELETE ON "session" FOR EACH ROW EXECUTE FUNCTION coverly_signal_access();--> statement-breakpoint
CREATE TRIGGER loan_participant_signal_access AFTER DELETE ON "loan_participant" FOR EACH ROW EXECUTE FUNCTION coverly_signal_access();--> statement-breakpoint
CREATE TRIGGER team_member_signal_access AFTER DELETE ON "team_member" FOR EACH ROW EXECUTE FUNCTION coverly_signal_access();--> statement-breakpoint
CREATE TRIGGER loan_signal_access AFTER DELETE ON "loan" FOR EACH ROW EXECUTE FUNCTION coverly_signal_access();
