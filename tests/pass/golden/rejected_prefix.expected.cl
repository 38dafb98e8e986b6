/* libsplit-cc: no partition-ready source: the source uses the prefix '__libsplit', reserved for the rewrite (rejected_prefix.cl:2) */
