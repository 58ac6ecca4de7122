"""What can be bought or rented: GPU specs, on-prem cards, framework stacks (packaged CSVs in
planner/data with their sources), price sources, and the offers a scenario may use.

Importing it loads no pandas or numpy (each module imports them where a table is built): the scenario
model and `fleetplan validate` use its names, text rows and did-you-mean only.
"""

from planner.catalog.frameworks import capability_reason, exclusion_reason, framework_problem, stack
from planner.catalog.gpus import (
                                  THROUGHPUT_METRICS,
                                  board_gpus,
                                  card_rows,
                                  custom_gpu_ids,
                                  gpu_rows,
                                  gpu_table,
                                  gpus_named,
                                  load_cards,
                                  load_gpus,
                                  match_gpus,
                                  resolve_gpu,
                                  suggest,
                                  suggest_gpu,
)
from planner.catalog.offers import allowed, capex_per_unit, check_regions, cloud_rows, onprem_offers, site_cards
from planner.catalog.prices import (
    date_report,
    gaps_of_options,
    option_gaps,
    price_coverage,
    price_table,
    resolve_store,
)

__all__ = ["THROUGHPUT_METRICS", "allowed", "board_gpus", "capex_per_unit", "card_rows", "check_regions", "cloud_rows",
           "capability_reason", "custom_gpu_ids", "date_report", "exclusion_reason", "framework_problem", "gaps_of_options",
           "gpu_rows", "gpu_table", "gpus_named",
           "load_cards", "load_gpus", "match_gpus", "onprem_offers", "option_gaps", "price_coverage", "price_table",
           "resolve_gpu", "resolve_store", "site_cards", "stack", "suggest", "suggest_gpu"]
