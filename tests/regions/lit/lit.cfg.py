# lit configuration for the region analysis passes run through opt (style-anchors.md).
# The tests are OpenCL C: Clang 16 emits the IR, opt runs the plugin, FileCheck reads.
import lit.formats

config.name = "libsplit-regions"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cl", ".ll"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.libsplit_lit_work

# Clang as the analysis' front end runs it (pass/rewrite/OpenCLFrontend.cpp), unoptimised
# but without optnone (pass/regions/ProgramRegions.cpp).
config.substitutions.append(
    ("%clang_cl_ir",
     config.libsplit_clang + " -cc1 -triple spir64-unknown-unknown -x cl"
     " -fdeclare-opencl-builtins -finclude-default-header -O2 -disable-llvm-passes"
     " -emit-llvm -o -"))
config.substitutions.append(
    ("%opt", config.libsplit_opt + " -load-pass-plugin=" + config.libsplit_plugin))
config.substitutions.append(("FileCheck", config.libsplit_filecheck))
