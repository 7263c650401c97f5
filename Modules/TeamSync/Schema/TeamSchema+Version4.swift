import PostgresNIO

extension TeamSchema {
  /// Numbering that no member's transaction can hold up, announcements only a team's members
  /// can address, and a machine's pushes that may race.
  ///
  /// A change is numbered from its team's own sequence, which nobody can lock: numbers are
  /// taken in order but may commit out of order, and a number given to a transaction that aborts
  /// (or skips its row, or is still open) stays missing. A pull stops at the first missing number
  /// above the team's *horizon*, the number through which every missing number is known never to
  /// come: `pass_gaps` moves it, and serializable snapshot isolation aborts whatever transaction
  /// still holds a number it passes. Releases before this one read `last_sequence` and pull
  /// windows of numbers as dense, so this schema raises ``TeamSchema/compatibleFrom`` to 4.
  ///
  /// The statements an edit meets on its way, numbering and announcing, are in
  /// TeamSchema+Numbering.swift; passing a missing number (a recovery) and a member's rights are
  /// here.
  static let version4: [PostgresQuery] = numbering + announcing + passingGaps + membersRights

  /// `pass_gaps`: the team goes on past a number missing for over a second.
  private static let passingGaps: [PostgresQuery] = [
    // NB: Passes numbers missing over a second, in a SERIALIZABLE transaction that reads each,
    // so their holder cannot also commit (OpenTransactionTests); at most once a second a team.
    // Its notify wakes stopped machines and forbids PREPARE, which no abort could then undo.
    """
    CREATE FUNCTION standups_team.pass_gaps(team text) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
    DECLARE
      passed bigint := 0;
      passed_at timestamptz;
      settled bigint;
      present bigint;
    BEGIN
      IF NOT EXISTS (
        SELECT 1 FROM standups_team.team_members AS m
        WHERE m.team = pass_gaps.team AND pg_has_role(session_user, m.role, 'MEMBER')
      ) THEN
        RETURN NULL;
      END IF;
      IF current_setting('transaction_isolation') <> 'serializable' THEN
        RAISE EXCEPTION 'gaps are passed only in SERIALIZABLE transactions'
          USING ERRCODE = 'invalid_transaction_state';
      END IF;
      SELECT h.through, h.made_at INTO passed, passed_at
      FROM standups_team.horizons AS h WHERE h.team = pass_gaps.team
      ORDER BY h.through DESC LIMIT 1;
      passed := COALESCE(passed, 0);
      IF passed_at > clock_timestamp() - interval '1 second' THEN
        RETURN passed;
      END IF;
      SELECT max(c.sequence) INTO settled FROM standups_team.changes AS c
      WHERE c.team = pass_gaps.team AND c.sequence > passed
        AND c.numbered_at < clock_timestamp() - interval '1 second';
      IF settled IS NULL THEN
        RETURN passed;
      END IF;
      SELECT count(*) INTO present FROM standups_team.changes AS c
      WHERE c.team = pass_gaps.team AND c.sequence > passed AND c.sequence <= settled;
      IF present = settled - passed THEN
        RETURN passed;
      END IF;
      INSERT INTO standups_team.horizons (team, through) VALUES (pass_gaps.team, settled);
      PERFORM pg_notify(t.channel, '') FROM standups_team.teams AS t WHERE t.name = pass_gaps.team;
      RETURN settled;
    END
    $$
    """,
    "REVOKE EXECUTE ON FUNCTION standups_team.pass_gaps(text) FROM PUBLIC",
  ]

  /// Adding a member makes the team's numbers the first time; a member's rights include the
  /// functions above, given again to the members there are.
  private static let membersRights: [PostgresQuery] = [
    """
    CREATE OR REPLACE FUNCTION standups_team.add_member(team text, member name) RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
    AS $$
    DECLARE
      numbers regclass;
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM standups_team.teams AS t WHERE t.name = add_member.team) THEN
        numbers := standups_team.create_numbers(0);
        INSERT INTO standups_team.teams (name, numbers) VALUES (add_member.team, numbers)
          ON CONFLICT DO NOTHING;
        IF NOT FOUND THEN
          EXECUTE format('DROP SEQUENCE %s', numbers);
        END IF;
      END IF;
      INSERT INTO standups_team.team_members (team, role) VALUES (add_member.team, member)
        ON CONFLICT DO NOTHING;
      PERFORM standups_team.grant_member(member);
    END
    $$
    """,
    """
    CREATE OR REPLACE FUNCTION standups_team.grant_member(member name) RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
    AS $$
    BEGIN
      EXECUTE format('GRANT USAGE ON SCHEMA standups_team TO %I', member);
      EXECUTE format(
        'GRANT SELECT ON standups_team.schema_version, standups_team.teams, '
        'standups_team.team_members, standups_team.compacted_states, '
        'standups_team.compacted_machines, standups_team.horizons TO %I', member);
      EXECUTE format('GRANT SELECT, INSERT ON standups_team.changes TO %I', member);
      EXECUTE format(
        'GRANT SELECT, INSERT (team, machine, pulled_through), UPDATE (pulled_through) '
        'ON standups_team.machines TO %I', member);
      EXECUTE format(
        'GRANT EXECUTE ON FUNCTION standups_team.horizon(text), '
        'standups_team.take_number(text), standups_team.pass_gaps(text) TO %I', member);
    END
    $$
    """,
    """
    SELECT standups_team.grant_member(role)
    FROM (SELECT DISTINCT role FROM standups_team.team_members) AS members
    WHERE role IN (SELECT rolname FROM pg_catalog.pg_roles)
    """,
  ]
}
