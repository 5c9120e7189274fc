"""The application: what is done with runs besides running them once. Results as a DataFrame, a
manifest's rerun and a stored run's recheck, the audit store, findings built from quotes, a reviewer's
decisions read back, and the quotes extracted from a manuscript. It may import the pipeline and every
floor below; the exports and the command line sit above it.
"""
