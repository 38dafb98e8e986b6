#pragma once
ulong rowBase(uint width) { return ROW() * width * get_local_size(1); }
