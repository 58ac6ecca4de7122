"""Scenarios: the frozen models, reading YAML files with line-numbered errors, dotted overrides."""

from planner.scenario.loading import (
                                      YamlRefused,
                                      editor_lines,
                                      editor_place,
                                      load_scenario,
                                      load_scenario_file,
                                      load_scenario_text,
                                      parse_scenario,
                                      read_yaml_value,
                                      scenario_json_schema,
)
from planner.scenario.model import (
                                      BUILTIN_PROFILES,
                                      CardOverride,
                                      Constraints,
                                      OnPrem,
                                      Prices,
                                      Provider,
                                      PurchaseOption,
                                      Scenario,
                                      ScenarioReadOnly,
                                      ThroughputMetric,
                                      Workload,
)
from planner.scenario.overrides import (
                                      apply_overrides,
                                      diff_inputs,
                                      flatten_scenario,
                                      normalise_overrides,
                                      parse_value,
                                      path_keys,
                                      path_problems,
                                      split_values,
)

__all__ = ["BUILTIN_PROFILES", "CardOverride", "Constraints", "OnPrem", "Prices", "Provider", "PurchaseOption",
           "Scenario", "ScenarioReadOnly", "ThroughputMetric", "Workload", "path_keys", "path_problems",
           "apply_overrides", "diff_inputs", "editor_lines", "editor_place", "flatten_scenario",
           "load_scenario", "load_scenario_file", "load_scenario_text", "normalise_overrides", "parse_scenario",
           "parse_value", "read_yaml_value", "scenario_json_schema", "split_values", "YamlRefused"]
