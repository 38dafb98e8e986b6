//===- KernelArgs.cpp - What each kernel argument is ----------------------===//

#include "KernelArgs.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"

namespace libsplit::regions {

using analysis::ArgKind;
using analysis::ScalarType;

namespace {

std::string metadataString(const llvm::Function &F, llvm::StringRef Kind, unsigned Index) {
  const llvm::MDNode *Node = F.getMetadata(Kind);
  if (!Node || Index >= Node->getNumOperands())
    return "";
  if (const auto *Text = llvm::dyn_cast_or_null<llvm::MDString>(Node->getOperand(Index)))
    return Text->getString().str();
  return "";
}

std::optional<unsigned> metadataInt(const llvm::Function &F, llvm::StringRef Kind, unsigned Index) {
  const llvm::MDNode *Node = F.getMetadata(Kind);
  if (!Node || Index >= Node->getNumOperands())
    return std::nullopt;
  if (const auto *Value =
          llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(Node->getOperand(Index)))
    return static_cast<unsigned>(Value->getZExtValue());
  return std::nullopt;
}

MemoryObject memoryObjectOf(llvm::StringRef TypeName) {
  if (TypeName.startswith("image") || TypeName.contains("image1d") ||
      TypeName.contains("image2d") || TypeName.contains("image3d"))
    return MemoryObject::Image;
  if (TypeName.startswith("pipe") || TypeName.contains(" pipe"))
    return MemoryObject::Pipe;
  return MemoryObject::None;
}

} // namespace

bool isKernel(const llvm::Function &F) {
  return !F.isDeclaration() && (F.getCallingConv() == llvm::CallingConv::SPIR_KERNEL ||
                                F.hasMetadata("kernel_arg_addr_space"));
}

ScalarType scalarTypeOf(const std::string &TypeName) {
  llvm::StringRef Name = llvm::StringRef(TypeName).trim();
  Name.consume_front("const ");
  Name.consume_front("volatile ");
  return llvm::StringSwitch<ScalarType>(Name)
      .Cases("char", "signed char", ScalarType::I8)
      .Cases("uchar", "unsigned char", ScalarType::U8)
      .Cases("short", "signed short", ScalarType::I16)
      .Cases("ushort", "unsigned short", ScalarType::U16)
      .Cases("int", "signed int", "signed", ScalarType::I32)
      .Cases("uint", "unsigned int", "unsigned", ScalarType::U32)
      .Cases("long", "signed long", ScalarType::I64)
      .Cases("ulong", "unsigned long", ScalarType::U64)
      .Default(ScalarType::None);
}

std::vector<KernelArg> describeKernelArgs(const llvm::Function &Kernel) {
  std::vector<KernelArg> Args;
  for (const llvm::Argument &IRArg : Kernel.args()) {
    const unsigned Index = IRArg.getArgNo();
    KernelArg Arg;
    Arg.Name = IRArg.hasName() ? IRArg.getName().str() : "-";
    Arg.TypeName = metadataString(Kernel, "kernel_arg_base_type", Index);
    if (Arg.TypeName.empty())
      Arg.TypeName = metadataString(Kernel, "kernel_arg_type", Index);
    Arg.AccessQual = metadataString(Kernel, "kernel_arg_access_qual", Index);
    Arg.Object = memoryObjectOf(Arg.TypeName);
    std::optional<unsigned> AddressSpace = metadataInt(Kernel, "kernel_arg_addr_space", Index);
    llvm::Type *Type = IRArg.getType();
    if (!AddressSpace && Type->isPointerTy())
      AddressSpace = Type->getPointerAddressSpace(); // IR without OpenCL metadata (opt tests)
    if (Arg.Object != MemoryObject::None) {
      Arg.Kind = ArgKind::Other;
    } else if (Type->isPointerTy() && AddressSpace == 1u) {
      Arg.Kind = ArgKind::Global;
    } else if (Type->isPointerTy() && AddressSpace == 2u) {
      Arg.Kind = ArgKind::Constant;
    } else if (Type->isPointerTy() && AddressSpace == 3u) {
      Arg.Kind = ArgKind::Local;
    } else if (Type->isIntegerTy() || Type->isFloatingPointTy() || Type->isVectorTy()) {
      Arg.Kind = ArgKind::Scalar;
      if (Type->isIntegerTy()) {
        Arg.Scalar = scalarTypeOf(Arg.TypeName);
        // Without metadata, or for a typedef Clang did not resolve, the width alone cannot
        // say the signedness: such an argument never appears in an expression.
        const unsigned Bits = Type->getIntegerBitWidth();
        const unsigned Expected =
            Arg.Scalar == ScalarType::I8 || Arg.Scalar == ScalarType::U8     ? 8
            : Arg.Scalar == ScalarType::I16 || Arg.Scalar == ScalarType::U16 ? 16
            : Arg.Scalar == ScalarType::I32 || Arg.Scalar == ScalarType::U32 ? 32
            : Arg.Scalar == ScalarType::None                                 ? 0
                                                                             : 64;
        if (Expected != Bits)
          Arg.Scalar = ScalarType::None;
      }
    } else {
      Arg.Kind = ArgKind::Other; // structs by value, samplers, queues
    }
    Args.push_back(std::move(Arg));
  }
  return Args;
}

} // namespace libsplit::regions
