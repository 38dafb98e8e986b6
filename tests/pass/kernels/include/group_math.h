// Included through -I: helpers declared in a header need the rewrite too.
#ifndef GROUP_MATH_H
#define GROUP_MATH_H

// A macro that expands to a rewritten builtin.
#define GROUP(D) get_group_id(D)

// Declared here, defined in the program after its first use.
ulong totalGroups(void);

// Only through other helpers does this one reach the builtins.
ulong groupOrdinal(void);

// Uses no rewritten builtin: must stay as written.
ulong scaled(ulong X) { return X * SCALE; }

#endif
