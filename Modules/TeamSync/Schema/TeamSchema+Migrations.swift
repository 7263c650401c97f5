import PostgresNIO

extension TeamSchema {
  /// The statements that bring the schema from each version to the next: element `n` takes
  /// version `n` to `n + 1`. A release only ever appends; a migration once released never
  /// changes, since servers have run it.
  ///
  /// They are fixed text with no values in them: what varies (a team, a role) is always bound
  /// by the statements that use the schema.
  static let migrations: [[PostgresQuery]] = [version1, version2, version3, version4]

  /// The schema records, beside its version, the oldest version a release may know and still
  /// sync with it (``TeamSchema/compatibleFrom``): a newer release's schema that only adds what
  /// older ones need not read leaves them syncing.
  private static let version2: [PostgresQuery] = [
    """
    ALTER TABLE standups_team.schema_version
    ADD COLUMN compatible_from integer NOT NULL DEFAULT 1 CHECK (compatible_from >= 1)
    """
  ]

  /// The first schema: teams, members, the change log, and the row-level security that keeps
  /// each team's rows to its members.
  private static let version1: [PostgresQuery] = [
    "CREATE SCHEMA standups_team",
    """
    CREATE TABLE standups_team.schema_version (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      version integer NOT NULL
    )
    """,
    // NB: `last_sequence` is the team's clock: see `next_sequence`.
    """
    CREATE TABLE standups_team.teams (
      name text PRIMARY KEY CHECK (name <> ''),
      last_sequence bigint NOT NULL DEFAULT 0,
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
    // NB: `made_by` cannot be forged: the insert policy requires the connected role. A machine's
    // own number for each change (`machine`, `machine_sequence`) is unique, so a push made
    // again after a crash adds nothing twice.
    """
    CREATE TABLE standups_team.changes (
      team text NOT NULL REFERENCES standups_team.teams (name),
      sequence bigint NOT NULL,
      machine uuid NOT NULL,
      machine_sequence bigint NOT NULL,
      based_on bigint NOT NULL,
      change jsonb NOT NULL,
      made_by name NOT NULL DEFAULT current_user,
      made_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (team, sequence),
      UNIQUE (team, machine, machine_sequence)
    )
    """,
    // NB: Numbers in commit order (the team's row stays locked until commit), so a pull up to N
    // misses nothing below N; guarded by ConvergenceTests. Definer's: members may not update teams.
    """
    CREATE FUNCTION standups_team.next_sequence() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
    BEGIN
      UPDATE standups_team.teams SET last_sequence = last_sequence + 1
      WHERE name = NEW.team RETURNING last_sequence INTO NEW.sequence;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'no team %', NEW.team USING ERRCODE = 'foreign_key_violation';
      END IF;
      RETURN NEW;
    END
    $$
    """,
    """
    CREATE TRIGGER numbered BEFORE INSERT ON standups_team.changes
    FOR EACH ROW EXECUTE FUNCTION standups_team.next_sequence()
    """,
    // NB: The members listening hear that something was committed, not what or for which team:
    // each then pulls what its role may read.
    """
    CREATE FUNCTION standups_team.announce() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
    AS $$
    BEGIN
      PERFORM pg_notify('standups_team_changes', '');
      RETURN NULL;
    END
    $$
    """,
    """
    CREATE TRIGGER announced AFTER INSERT ON standups_team.changes
    FOR EACH STATEMENT EXECUTE FUNCTION standups_team.announce()
    """,
    // NB: An invoker's function, so `current_user` is the member asking (in a definer's it is the
    // owner); the fixed search_path keeps a member's objects out. Guarded by the psql RLS test.
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
      EXECUTE format('GRANT SELECT, INSERT ON standups_team.changes TO %I', member);
    END
    $$
    """,
    "REVOKE EXECUTE ON FUNCTION standups_team.add_member(text, name) FROM PUBLIC",
    "REVOKE EXECUTE ON FUNCTION standups_team.next_sequence() FROM PUBLIC",
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
