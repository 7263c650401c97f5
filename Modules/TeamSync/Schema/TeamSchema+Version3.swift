import PostgresNIO

extension TeamSchema {
  /// A team's history may be compacted and its beginning pruned (`standups team prune`): the
  /// team's standups as its changes up to a number left them (`compacted_states`), with the last
  /// change of each machine folded in (`compacted_machines`); how far each machine has pulled
  /// (`machines`), so that a prune keeps what the slowest still needs; and a machine's numbers
  /// are its role's alone, so that a member writing rows by hand under another's machine ID
  /// cannot take the numbers that machine's next changes need.
  ///
  /// A release before this one pulls a window of numbers and takes the numbers missing from it
  /// as changes it may skip, so this schema raises ``TeamSchema/compatibleFrom`` to 3.
  static let version3: [PostgresQuery] = [
    """
    ALTER TABLE standups_team.changes DROP CONSTRAINT changes_team_machine_machine_sequence_key
    """,
    """
    ALTER TABLE standups_team.changes
    ADD CONSTRAINT changes_machine_numbers UNIQUE (team, made_by, machine, machine_sequence)
    """,
    // NB: The state folds in the changes numbered up to `through`; the history keeps those after
    // `pruned_through`, which is never after `through`.
    """
    CREATE TABLE standups_team.compacted_states (
      team text PRIMARY KEY REFERENCES standups_team.teams (name) ON DELETE CASCADE,
      through bigint NOT NULL CHECK (through >= 0),
      pruned_through bigint NOT NULL CHECK (pruned_through BETWEEN 0 AND through),
      standups jsonb NOT NULL,
      made_at timestamptz NOT NULL DEFAULT now()
    )
    """,
    """
    CREATE TABLE standups_team.compacted_machines (
      team text NOT NULL REFERENCES standups_team.compacted_states (team) ON DELETE CASCADE,
      made_by name NOT NULL,
      machine uuid NOT NULL,
      machine_sequence bigint NOT NULL,
      PRIMARY KEY (team, made_by, machine)
    )
    """,
    // NB: By role and machine, as the changes are: a member reports only their own machines,
    // and only how far they pulled (column grants); when is the server's to say (`stamped`).
    """
    CREATE TABLE standups_team.machines (
      team text NOT NULL REFERENCES standups_team.teams (name) ON DELETE CASCADE,
      made_by name NOT NULL DEFAULT current_user,
      machine uuid NOT NULL,
      pulled_through bigint NOT NULL,
      seen_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (team, made_by, machine)
    )
    """,
    """
    CREATE FUNCTION standups_team.stamp_machine() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
    AS $$
    BEGIN
      IF NOT standups_team.is_administrator() THEN
        NEW.seen_at := now();
      END IF;
      RETURN NEW;
    END
    $$
    """,
    """
    CREATE TRIGGER stamped BEFORE INSERT OR UPDATE ON standups_team.machines
    FOR EACH ROW EXECUTE FUNCTION standups_team.stamp_machine()
    """,
    """
    CREATE OR REPLACE FUNCTION standups_team.add_member(team text, member name) RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
    AS $$
    BEGIN
      INSERT INTO standups_team.teams (name) VALUES (add_member.team) ON CONFLICT DO NOTHING;
      INSERT INTO standups_team.team_members (team, role) VALUES (add_member.team, member)
        ON CONFLICT DO NOTHING;
      PERFORM standups_team.grant_member(member);
    END
    $$
    """,
    """
    CREATE FUNCTION standups_team.grant_member(member name) RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
    AS $$
    BEGIN
      EXECUTE format('GRANT USAGE ON SCHEMA standups_team TO %I', member);
      EXECUTE format(
        'GRANT SELECT ON standups_team.schema_version, standups_team.teams, '
        'standups_team.team_members, standups_team.compacted_states, '
        'standups_team.compacted_machines TO %I', member);
      EXECUTE format('GRANT SELECT, INSERT ON standups_team.changes TO %I', member);
      EXECUTE format(
        'GRANT SELECT, INSERT (team, machine, pulled_through), UPDATE (pulled_through) '
        'ON standups_team.machines TO %I', member);
    END
    $$
    """,
    "REVOKE EXECUTE ON FUNCTION standups_team.grant_member(name) FROM PUBLIC",
    """
    SELECT standups_team.grant_member(role)
    FROM (SELECT DISTINCT role FROM standups_team.team_members) AS members
    WHERE role IN (SELECT rolname FROM pg_catalog.pg_roles)
    """,
    // NB: The owner compacts and prunes: it reads and deletes changes, which no member may.
    """
    CREATE POLICY administered ON standups_team.changes FOR SELECT
    USING (standups_team.is_administrator())
    """,
    """
    CREATE POLICY pruned_by_administrator ON standups_team.changes FOR DELETE
    USING (standups_team.is_administrator())
    """,
    "ALTER TABLE standups_team.compacted_states ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE standups_team.compacted_states FORCE ROW LEVEL SECURITY",
    """
    CREATE POLICY administered ON standups_team.compacted_states
    USING (standups_team.is_administrator()) WITH CHECK (standups_team.is_administrator())
    """,
    """
    CREATE POLICY read_by_team ON standups_team.compacted_states FOR SELECT
    USING (standups_team.is_member(team))
    """,
    "ALTER TABLE standups_team.compacted_machines ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE standups_team.compacted_machines FORCE ROW LEVEL SECURITY",
    """
    CREATE POLICY administered ON standups_team.compacted_machines
    USING (standups_team.is_administrator()) WITH CHECK (standups_team.is_administrator())
    """,
    """
    CREATE POLICY read_by_team ON standups_team.compacted_machines FOR SELECT
    USING (standups_team.is_member(team))
    """,
    "ALTER TABLE standups_team.machines ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE standups_team.machines FORCE ROW LEVEL SECURITY",
    """
    CREATE POLICY administered ON standups_team.machines
    USING (standups_team.is_administrator()) WITH CHECK (standups_team.is_administrator())
    """,
    """
    CREATE POLICY own_machines ON standups_team.machines
    USING (made_by = current_user)
    WITH CHECK (standups_team.is_member(team) AND made_by = current_user)
    """,
  ]
}
