"""Settings of the price adapters that the CLI needs to build its help: kept free of pandas and the
cloud SDKs, so `fleetplan --help` can read them without loading either."""

DEFAULT_DEADLINE_S = 600.0  # a full refresh of a few regions takes 10-60 s; ten minutes means something hangs
STORE_ENV_VAR = "FLEETPLAN_STORE"  # the price store file, unless `--store PATH` says otherwise
