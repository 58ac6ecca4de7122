"""The Plan page's "Offers left out, and why": a reason longer than its column shows (a grid's cell does not wrap: "no
measured speed for B300: no measured speed under measured and no fp16_tensor_tflops+memory_bandwidth…" at 1366 px)
is said in full under the table, once, after the offers it covers (tables.reasons_in_full), as the baselines' and the
decisions' notes are (tables.notes_in_full). Oracles: a table made by hand, and industrial.yaml's three workloads
(evaluation, inference-batch, pretraining), none of which names AWS Inferentia in a throughput table."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables

ROOT = Path(__file__).resolve().parents[2]
NOT_A_GPU = "INFERENTIA is not a GPU (needs its own SDK): name it in the workload's throughput table to allow it"


def test_each_long_reason_is_said_once_with_the_offers_it_covers():
    table = pd.DataFrame({"workload": ["train", "train", "serve", "serve"], "provider": ["aws", "aws", "aws", "azure"],
                          "gpu": ["INFERENTIA", "K80", "INFERENTIA", "A10"],
                          "reason": [NOT_A_GPU, "12 GB per GPU < 80 GB needed", NOT_A_GPU, "GPU count unknown"],
                          "offers": [85, 3, 32, 1]})
    said = tables.reasons_in_full(table, 480)   # 64 characters fit; the two short reasons are not repeated
    assert said == ("Reasons in full:\n- **aws INFERENTIA** for train, serve (117 offers): " + tables.plain(NOT_A_GPU))
    assert tables.reasons_in_full(table[table["gpu"] != "INFERENTIA"], 480) is None
    assert tables.reasons_in_full(table.iloc[:0], 480) is None


def test_the_plan_page_says_the_long_reasons_in_full_under_the_table():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["scenario"] = "industrial.yaml"
    at.run()
    assert not at.exception, at.exception
    [table] = [d for d in at.dataframe if "reason" in d.value.columns]
    assert list(table.proto.column_order)[-1] == "reason"
    [said] = [c.value.replace("\\", "") for c in at.caption if c.value.startswith("Reasons in full:")]
    assert ("- **aws INFERENTIA** for evaluation, inference-batch, pretraining (" in said
            and said.count(NOT_A_GPU) == 1), said
    # every reason the table's column cuts short is on the page in full, each once
    long = {r for r in table.value["reason"] if len(r) > 64}
    assert long and all(said.count(f": {r}\n") + said.endswith(f": {r}") == 1 for r in long), said
