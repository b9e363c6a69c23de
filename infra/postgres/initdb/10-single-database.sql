-- Runs once, when the PostgreSQL volume is first initialised: the database of the single-process
-- profile (`docker compose --profile single`), kept apart from the separate services' `updown`.
create database updown_single;
