"""The plumbing: what keeps files and runs sound, whatever is being checked. Temporary files and the
transaction that writes all outputs of a run or none, the guard on every path written, the limits on
archives read, the caches kept between runs, and the manifest that records how a run was made. It may
import the model, nothing above it.
"""
