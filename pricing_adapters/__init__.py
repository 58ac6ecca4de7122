"""Price sources for the GPU fleet planner: packaged snapshot, price store, live AWS and Azure adapters.

Everything here yields the offers table of `pricing_adapters.schema`; nothing here imports the planner.
"""
