#ifndef COMMON_H
#define COMMON_H
#define ROW() get_group_id(1)
ulong rowBase(uint width);
#endif
