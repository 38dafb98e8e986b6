/* libsplit-cc: no partition-ready source: the declaration of 'groupOf' (rejected_declarator.cl:5) has a parameter list written by a macro */
