import PostgresNIO

// How the server numbers a change and tells the team, as "standups v4" of the team's schema made
// them (TeamSchema+Version4.swift composes the migration): the two steps of the server's that
// every edit meets on its way from one machine to another.

extension TeamSchema {
  /// The team's own sequence, its horizon, and `next_sequence`, the trigger that numbers each
  /// change a member inserts.
  static let numbering: [PostgresQuery] = [
    // NB: When the server numbered the change (the trigger's clock): `pass_gaps` passes only
    // numbers taken longer ago than its grace. Rows of before were numbered when made.
    "ALTER TABLE standups_team.changes ADD COLUMN numbered_at timestamptz",
    // NB: No policy lets anyone update a change, the owner included; it fills the column with
    // security not forced, which nobody sees: ALTER TABLE holds the table until this commits.
    "ALTER TABLE standups_team.changes NO FORCE ROW LEVEL SECURITY",
    "UPDATE standups_team.changes SET numbered_at = made_at",
    "ALTER TABLE standups_team.changes FORCE ROW LEVEL SECURITY",
    "ALTER TABLE standups_team.changes ALTER COLUMN numbered_at SET NOT NULL",
    // NB: One sequence per team, named at random (pg_class is public: no probing for teams);
    // CACHE 1 hands numbers out in the order taken, which `pass_gaps`' grace relies on
    // (ConvergenceTests). The owner's: add_member and this migration run as it.
    """
    CREATE FUNCTION standups_team.create_numbers(after bigint) RETURNS regclass
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
    AS $$
    DECLARE
      name text := 'numbers_' || replace(gen_random_uuid()::text, '-', '');
    BEGIN
      EXECUTE format(
        'CREATE SEQUENCE standups_team.%I AS bigint MINVALUE 1 START %s CACHE 1 NO CYCLE',
        name, after + 1);
      RETURN format('standups_team.%I', name)::regclass;
    END
    $$
    """,
    "REVOKE EXECUTE ON FUNCTION standups_team.create_numbers(bigint) FROM PUBLIC",
    "ALTER TABLE standups_team.teams ADD COLUMN numbers regclass",
    // NB: After the team's clock, and after its newest row (a v3 `ON CONFLICT DO NOTHING` moved
    // the clock without a row; nothing moved a row past the clock).
    """
    UPDATE standups_team.teams AS t
    SET numbers = standups_team.create_numbers(GREATEST(t.last_sequence,
      (SELECT max(c.sequence) FROM standups_team.changes AS c WHERE c.team = t.name)))
    """,
    "ALTER TABLE standups_team.teams ALTER COLUMN numbers SET NOT NULL",
    // NB: The horizon is the greatest `through`: every number up to it is committed or never
    // will be. Insert-only, with no unique key: no row or key anyone can hold that another must
    // wait for. Only `pass_gaps` (the owner's) writes it.
    """
    CREATE TABLE standups_team.horizons (
      team text NOT NULL REFERENCES standups_team.teams (name) ON DELETE CASCADE,
      through bigint NOT NULL CHECK (through > 0),
      made_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      made_by name NOT NULL DEFAULT session_user
    )
    """,
    "CREATE INDEX horizons_team_through ON standups_team.horizons (team, through)",
    "ALTER TABLE standups_team.horizons ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE standups_team.horizons FORCE ROW LEVEL SECURITY",
    """
    CREATE POLICY administered ON standups_team.horizons
    USING (standups_team.is_administrator()) WITH CHECK (standups_team.is_administrator())
    """,
    """
    CREATE POLICY read_by_team ON standups_team.horizons FOR SELECT
    USING (standups_team.is_member(team))
    """,
    // NB: Numbers given under version 3 are all committed (the team's row lock), and this
    // migration holds the changes table: each team's horizon starts at its clock, so that
    // `pass_gaps` never reads the history of before.
    """
    INSERT INTO standups_team.horizons (team, through)
    SELECT t.name, GREATEST(t.last_sequence,
      (SELECT max(c.sequence) FROM standups_team.changes AS c WHERE c.team = t.name))
    FROM standups_team.teams AS t WHERE t.last_sequence > 0
    """,
    // NB: The team's row is no longer anyone's clock, nor a lock a member can hold.
    "ALTER TABLE standups_team.teams DROP COLUMN last_sequence",
    // NB: The invoker's: a role reads only its teams' horizons (0 for any other name).
    """
    CREATE FUNCTION standups_team.horizon(team text) RETURNS bigint
    LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
    AS $$
      SELECT COALESCE(max(h.through), 0) FROM standups_team.horizons AS h
      WHERE h.team = horizon.team
    $$
    """,
    // NB: Definer's, so that members need no right on the sequences (setval needs UPDATE, which
    // nobody is given). In a definer's function `current_user` is the owner, so membership is the
    // session's role's; anyone else gets NULL, and learns nothing of another team's numbers.
    """
    CREATE FUNCTION standups_team.take_number(team text) RETURNS bigint
    LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $$
      SELECT nextval(t.numbers) FROM standups_team.teams AS t
      WHERE t.name = take_number.team AND EXISTS (
        SELECT 1 FROM standups_team.team_members AS m
        WHERE m.team = t.name AND pg_has_role(session_user, m.role, 'MEMBER'))
    $$
    """,
    "REVOKE EXECUTE ON FUNCTION standups_team.take_number(text) FROM PUBLIC",
    "REVOKE EXECUTE ON FUNCTION standups_team.horizon(text) FROM PUBLIC",
    // NB: Lock-free; reading the horizon makes serializable isolation abort whichever of a push
    // and the `pass_gaps` that passed its number commits second (ConvergenceTests). A
    // non-member's row stays unnumbered: row-level security refuses it in the same words.
    """
    CREATE OR REPLACE FUNCTION standups_team.next_sequence() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
    AS $$
    DECLARE
      passed bigint;
    BEGIN
      IF NOT standups_team.is_member(NEW.team) THEN
        RETURN NEW;
      END IF;
      IF current_setting('transaction_isolation') <> 'serializable' THEN
        RAISE EXCEPTION 'changes are numbered only in SERIALIZABLE transactions'
          USING ERRCODE = 'invalid_transaction_state',
            HINT = 'BEGIN ISOLATION LEVEL SERIALIZABLE, or SET default_transaction_isolation';
      END IF;
      passed := standups_team.horizon(NEW.team);
      NEW.sequence := standups_team.take_number(NEW.team);
      IF NEW.sequence <= passed THEN
        RAISE EXCEPTION 'the team''s numbers are behind its horizon %', passed
          USING ERRCODE = 'object_not_in_prerequisite_state';
      END IF;
      NEW.numbered_at := clock_timestamp();
      RETURN NEW;
    END
    $$
    """,
  ]

  /// The team's channel and `announce`, the trigger that tells it once per statement that adds
  /// changes.
  static let announcing: [PostgresQuery] = [
    // NB: A team's channel: 122 random bits its members alone read, so nobody else can wake its
    // apps; removing a member draws a new one (RemovalTests). The check keeps it a plain name,
    // since LISTEN takes it unbound (postgres-nio binds no identifier).
    """
    ALTER TABLE standups_team.teams ADD COLUMN channel text NOT NULL UNIQUE
    DEFAULT 'standups_' || replace(gen_random_uuid()::text, '-', '')
    CHECK (channel ~ '^standups_[0-9a-f]{32}$')
    """,
    // NB: Once per statement and team, on its channel (read through the teams policy that let
    // the rows in); nothing added, nothing announced. Notifying also forbids PREPARE of a
    // transaction holding a numbered row, which serializable isolation could then not abort.
    """
    CREATE OR REPLACE FUNCTION standups_team.announce() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
    AS $$
    BEGIN
      PERFORM pg_notify(t.channel, '')
      FROM standups_team.teams AS t
      WHERE t.name IN (SELECT a.team FROM added AS a);
      RETURN NULL;
    END
    $$
    """,
    "DROP TRIGGER announced ON standups_team.changes",
    """
    CREATE TRIGGER announced AFTER INSERT ON standups_team.changes
    REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION standups_team.announce()
    """,
  ]
}
