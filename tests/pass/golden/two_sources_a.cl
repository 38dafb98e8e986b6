// First source string: a helper, and no newline at its end.
size_t group(void) { return get_group_id(0); }