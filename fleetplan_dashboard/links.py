"""The scenario a page's URL carries (`state.share_params`: `?scenario=entry.yaml&onprem.pue=1.3`), read and written
alike on the pages that show the session's scenario (Prices, Compare, Export).

A page opened straight from a bookmark or a shared link starts a session of its own, with nothing in it: the Compare
and Export pages read no URL and showed the default file, unedited, whatever the link said (an audit, 2026-12-07),
while the Plan page opened the link's scenario and edits. `open_shared_link` does here what the Plan page does
(the Plan page's too: one function, the same steps and session keys), and `write_link` writes the scenario the page
shows into its URL, as the Plan page writes it, so that the Compare or Export page's own address reopens it.
"""

from __future__ import annotations

import streamlit as st

from fleetplan_dashboard import state

URL_PROBLEMS = "url_problems"   # the session key the Plan page shows its link's problems from
URL_WRITTEN = "url_written"     # the last URL query a page wrote (the Plan page's key: one URL per browser tab)
IGNORED = "Parts of the link were ignored:"   # the Plan page's words


def open_shared_link() -> None:
    """A URL this session did not write or open before (a shared link, or one edited by hand): its scenario and
    edits become the session's, before the page reads them, as on the Plan page. A URL the session wrote or opened
    before is its own (`state.link_is_known`): the edits made since stand."""
    params = st.query_params.to_dict()
    if not params or state.link_is_known(params):
        return
    state.know_link(params)
    base_id, problems = state.base_from_params(params)
    if base_id is not None:
        base, load_problems = state.load_base(base_id)
        if base is None:
            problems += list(load_problems)
        else:
            values, problems = state.values_from_params(base, params)
            state.open_base(base_id, values)   # forgets an upload refused before (state.forget_rejected)
    st.session_state[URL_PROBLEMS] = problems


def link_problems() -> list[str]:
    """What the last link opened in this session had that was ignored (the Plan page says the same)."""
    return list(st.session_state.get(URL_PROBLEMS) or [])


def write_link(cur: state.Current) -> None:
    """The URL set to the scenario on screen, `cur` (its file and edits; none for an upload, whose text only this
    session holds), where the browser's or the last written differs, and remembered as the session's own."""
    if cur.base is None:
        return
    shared = state.share_params(cur.base_id, cur.base, state.current_values(cur.base))
    if shared != st.query_params.to_dict() or shared != st.session_state.get(URL_WRITTEN):
        st.query_params.from_dict(shared)
    st.session_state[URL_WRITTEN] = shared
    state.know_link(shared)
