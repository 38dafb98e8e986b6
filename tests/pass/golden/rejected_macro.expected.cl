/* libsplit-cc: no partition-ready source: the macro name 'get_group_id' is defined, undefined or tested (rejected_macro.cl:2); the rewrite needs that name for its own macro */
