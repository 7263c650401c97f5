import PostgresNIO

extension TeamSchema {
  /// The statements that bring the schema from each version to the next: element `n` takes
  /// version `n` to `n + 1`. A release only ever appends; a migration once released never
  /// changes, since servers have run it.
  ///
  /// They are fixed text with no values in them: what varies (a team, a role) is always bound
  /// by the statements that use the schema.
  static let migrations: [[PostgresQuery]] = [version1]

  /// The first schema: teams, members, shared standups, the change log, and the row-level
  /// security that keeps each team's rows to its members.
  private static let version1: [PostgresQuery] = [
    "CREATE SCHEMA standups_team",
    """
    CREATE TABLE standups_team.schema_version (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      version integer NOT NULL
    )
    """,
    """
    CREATE TABLE standups_team.teams (
      name text PRIMARY KEY CHECK (name <> ''),
      created_at timestamptz NOT NULL DEFAULT now()
    )
    """,
    """
    CREATE TABLE standups_team.team_members (
      team text NOT NULL REFERENCES standups_team.teams (name) ON DELETE CASCADE,
      role name NOT NULL,
      PRIMARY KEY (team, role)
    )
    """,
    """
    CREATE TABLE standups_team.standups (
      team text NOT NULL REFERENCES standups_team.teams (name),
      standup_id uuid NOT NULL,
      standup jsonb NOT NULL,
      PRIMARY KEY (team, standup_id)
    )
    """,
    // NB: `standup` is null for a deletion. `made_by` cannot be forged: the insert policy
    // requires the connected role.
    """
    CREATE TABLE standups_team.changes (
      sequence bigserial PRIMARY KEY,
      team text NOT NULL REFERENCES standups_team.teams (name),
      standup_id uuid NOT NULL,
      standup jsonb,
      made_by name NOT NULL DEFAULT current_user,
      made_at timestamptz NOT NULL DEFAULT now()
    )
    """,
    "CREATE INDEX changes_of_team ON standups_team.changes (team, sequence)",
    // NB: An invoker's function, not SECURITY DEFINER: inside a definer's function
    // `current_user` is the function's owner, not the member asking. It reads `team_members`
    // as the member, whose own policy there shows the member its own rows only. The fixed
    // search_path keeps a member's objects from standing in for the catalog's.
    """
    CREATE FUNCTION standups_team.is_member(team text) RETURNS boolean
    LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
    AS $$
      SELECT EXISTS (
        SELECT 1 FROM standups_team.team_members m
        WHERE m.team = is_member.team AND m.role = current_user
      )
    $$
    """,
    // NB: The schema's owner (or a role that is a member of the owner, or a superuser)
    // administers teams and members; with security forced it needs a policy to do so.
    """
    CREATE FUNCTION standups_team.is_administrator() RETURNS boolean
    LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
    AS $$
      SELECT pg_has_role(current_user, n.nspowner, 'USAGE')
      FROM pg_namespace n WHERE n.nspname = 'standups_team'
    $$
    """,
    // NB: GRANT takes no bound parameters, so the role's name is quoted here, by the server
    // (`%I`), and the function itself is called with bound parameters.
    """
    CREATE FUNCTION standups_team.add_member(team text, member name) RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
    AS $$
    BEGIN
      INSERT INTO standups_team.teams (name) VALUES (add_member.team) ON CONFLICT DO NOTHING;
      INSERT INTO standups_team.team_members (team, role) VALUES (add_member.team, member)
        ON CONFLICT DO NOTHING;
      EXECUTE format('GRANT USAGE ON SCHEMA standups_team TO %I', member);
      EXECUTE format(
        'GRANT SELECT ON standups_team.schema_version, standups_team.teams, '
        'standups_team.team_members TO %I', member);
      EXECUTE format('GRANT SELECT, INSERT, UPDATE ON standups_team.standups TO %I', member);
      EXECUTE format('GRANT SELECT, INSERT ON standups_team.changes TO %I', member);
      EXECUTE format(
        'GRANT USAGE ON SEQUENCE standups_team.changes_sequence_seq TO %I', member);
    END
    $$
    """,
    "REVOKE EXECUTE ON FUNCTION standups_team.add_member(text, name) FROM PUBLIC",
    "ALTER TABLE standups_team.teams ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE standups_team.teams FORCE ROW LEVEL SECURITY",
    """
    CREATE POLICY administered ON standups_team.teams
    USING (standups_team.is_administrator()) WITH CHECK (standups_team.is_administrator())
    """,
    """
    CREATE POLICY seen_by_members ON standups_team.teams FOR SELECT
    USING (standups_team.is_member(name))
    """,
    "ALTER TABLE standups_team.team_members ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE standups_team.team_members FORCE ROW LEVEL SECURITY",
    """
    CREATE POLICY administered ON standups_team.team_members
    USING (standups_team.is_administrator()) WITH CHECK (standups_team.is_administrator())
    """,
    """
    CREATE POLICY own_membership ON standups_team.team_members FOR SELECT
    USING (role = current_user)
    """,
    "ALTER TABLE standups_team.standups ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE standups_team.standups FORCE ROW LEVEL SECURITY",
    """
    CREATE POLICY team_only ON standups_team.standups
    USING (standups_team.is_member(team)) WITH CHECK (standups_team.is_member(team))
    """,
    "ALTER TABLE standups_team.changes ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE standups_team.changes FORCE ROW LEVEL SECURITY",
    """
    CREATE POLICY read_by_team ON standups_team.changes FOR SELECT
    USING (standups_team.is_member(team))
    """,
    """
    CREATE POLICY written_by_member ON standups_team.changes FOR INSERT
    WITH CHECK (standups_team.is_member(team) AND made_by = current_user)
    """,
  ]
}
