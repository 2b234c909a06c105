	.file	"<string>"
	.section	.rodata.cst8,"aM",@progbits,8
	.p2align	3, 0x0
.LCPI0_0:
	.quad	0x3f847ae147ae147b
.LCPI0_1:
	.quad	0xbf847ae147ae147b
.LCPI0_3:
	.quad	0x4008000000000000
	.section	.rodata.cst16,"aM",@progbits,16
	.p2align	4, 0x0
.LCPI0_2:
	.quad	0x8000000000000000
	.quad	0x8000000000000000
	.section	.ltext,"axl",@progbits
	.globl	_ZN2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d
	.p2align	4
	.type	_ZN2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d,@function
_ZN2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	pushq	%r15
	.cfi_def_cfa_offset 24
	pushq	%r14
	.cfi_def_cfa_offset 32
	pushq	%r13
	.cfi_def_cfa_offset 40
	pushq	%r12
	.cfi_def_cfa_offset 48
	pushq	%rbx
	.cfi_def_cfa_offset 56
	subq	$760, %rsp
	.cfi_def_cfa_offset 816
	.cfi_offset %rbx, -56
	.cfi_offset %r12, -48
	.cfi_offset %r13, -40
	.cfi_offset %r14, -32
	.cfi_offset %r15, -24
	.cfi_offset %rbp, -16
	movq	912(%rsp), %r13
	movq	904(%rsp), %rbx
	movq	840(%rsp), %r12
	movabsq	$NRT_incref, %rbp
	vmovapd	%xmm0, 352(%rsp)
	vxorpd	%xmm0, %xmm0, %xmm0
	movq	%rdi, %r14
	vmovupd	%ymm0, 624(%rsp)
	movq	%rdx, %rdi
	vmovapd	%xmm1, 336(%rsp)
	movq	%r9, 176(%rsp)
	movq	%r8, 120(%rsp)
	movq	%rcx, 168(%rsp)
	movq	%rsi, %r15
	vmovupd	%ymm0, 224(%rsp)
	vmovupd	%ymm0, 192(%rsp)
	movq	$0, 184(%rsp)
	vmovupd	%ymm0, 648(%rsp)
	movq	$0, 328(%rsp)
	movq	%rdx, 112(%rsp)
	vzeroupper
	callq	*%rbp
	movq	%r12, %rdi
	callq	*%rbp
	movq	%rbx, %rdi
	callq	*%rbp
	movq	%rbx, %rdi
	movq	$0, 72(%rsp)
	callq	*%rbp
	movabsq	$_ZN5numba5typed10listobject12impl_getitem12_3clocals_3e21integer_non_none_implB3v17B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx, %rax
	leaq	256(%rsp), %rdi
	leaq	72(%rsp), %rsi
	vxorpd	%xmm0, %xmm0, %xmm0
	vmovupd	%ymm0, 280(%rsp)
	vmovupd	%ymm0, 256(%rsp)
	movq	%rbx, %rdx
	movq	%r13, %rcx
	xorl	%r8d, %r8d
	vzeroupper
	callq	*%rax
	testl	%eax, %eax
	jne	.LBB0_109
	movq	272(%rsp), %rcx
	movq	280(%rsp), %rdx
	movq	256(%rsp), %r12
	movq	264(%rsp), %rax
	movq	%r15, 80(%rsp)
	movq	824(%rsp), %r15
	movq	%rcx, 16(%rsp)
	movq	288(%rsp), %rcx
	movq	%rdx, 8(%rsp)
	movq	296(%rsp), %rdx
	movq	%r12, %rdi
	movq	%rax, 48(%rsp)
	movq	%rcx, 64(%rsp)
	movq	304(%rsp), %rcx
	movq	%rdx, 88(%rsp)
	movq	%rcx, 56(%rsp)
	callq	*%rbp
	movabsq	$NRT_decref, %rax
	movq	%rbx, %rdi
	callq	*%rax
	testq	%r15, %r15
	js	.LBB0_111
	movabsq	$1152921504606846960, %rax
	movq	%r15, %rcx
	addq	$15, %rax
	cmpq	%rax, %r15
	ja	.LBB0_112
	leaq	(,%rcx,8), %rbp
	movabsq	$NRT_MemInfo_alloc_aligned, %rbx
	movl	$32, %esi
	movq	%rbp, %rdi
	callq	*%rbx
	testq	%rax, %rax
	je	.LBB0_113
	movq	%r14, 408(%rsp)
	movq	24(%rax), %r14
	movabsq	$NRT_incref, %r15
	movq	%rax, %rdi
	movq	%rax, %r13
	callq	*%r15
	movq	%r13, %rdi
	callq	*%r15
	movl	$32, %esi
	movq	%rbp, %rdi
	callq	*%rbx
	testq	%rax, %rax
	je	.LBB0_114
	movq	24(%rax), %r15
	movq	896(%rsp), %rbx
	movq	%rax, 416(%rsp)
	movabsq	$memset, %rax
	xorl	%esi, %esi
	movq	%rbp, %rdx
	movq	%r15, %rdi
	callq	*%rax
	movabsq	$NRT_decref, %rbp
	movq	%r13, %rdi
	callq	*%rbp
	movq	%r13, %rdi
	movq	%r13, 136(%rsp)
	callq	*%rbp
	movq	%rbx, %rax
	sarq	$63, %rax
	movq	88(%rsp), %r13
	andnq	%rbx, %rax, %rbx
	movq	%rbx, 104(%rsp)
	imulq	120(%rsp), %rbx
	cmpq	%r13, %rbx
	jle	.LBB0_8
	movabsq	$NRT_incref, %rax
	movq	%r12, %rdi
	movq	$0, 72(%rsp)
	callq	*%rax
	movq	48(%rsp), %rcx
	movq	16(%rsp), %r8
	movq	8(%rsp), %r9
	vxorpd	%xmm0, %xmm0, %xmm0
	vmovupd	%ymm0, 280(%rsp)
	vmovupd	%ymm0, 256(%rsp)
	movabsq	$_ZN7adtrans7targets11cpu_runtime5_growB3v25B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx, %rax
	leaq	256(%rsp), %rdi
	leaq	72(%rsp), %rsi
	movq	%r12, %rdx
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	pushq	64(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	pushq	88(%rsp)
	.cfi_adjust_cfa_offset 8
	vzeroupper
	callq	*%rax
	addq	$32, %rsp
	.cfi_adjust_cfa_offset -32
	testl	%eax, %eax
	jne	.LBB0_110
	movq	264(%rsp), %rcx
	movq	272(%rsp), %rdx
	movq	256(%rsp), %rax
	movq	296(%rsp), %r13
	movabsq	$NRT_decref, %rbp
	movq	%r12, %rdi
	movq	%rcx, 48(%rsp)
	movq	280(%rsp), %rcx
	movq	%rdx, 16(%rsp)
	movq	288(%rsp), %rdx
	movq	%rax, 32(%rsp)
	movq	%rcx, 8(%rsp)
	movq	304(%rsp), %rcx
	movq	%rdx, 64(%rsp)
	movq	%rcx, 56(%rsp)
	callq	*%rbp
	movq	%r12, %rdi
	callq	*%rbp
	movq	%r12, %rdi
	callq	*%rbp
	xorl	%r12d, %r12d
	jmp	.LBB0_9
.LBB0_8:
	movq	%r12, 32(%rsp)
	movabsq	$NRT_decref, %rbp
.LBB0_9:
	movq	816(%rsp), %rbx
	movq	%r12, %rdi
	callq	*%rbp
	cmpq	$0, 896(%rsp)
	jle	.LBB0_30
	movq	824(%rsp), %r10
	movq	56(%rsp), %r11
	movq	16(%rsp), %r8
	movq	48(%rsp), %rcx
	movq	32(%rsp), %r12
	xorl	%esi, %esi
	movq	%r10, %rax
	subq	$2, %rax
	cmovaeq	%rax, %rsi
	jbe	.LBB0_31
	movq	%rsi, 40(%rsp)
	leaq	(%rbx,%r10,8), %rsi
	leaq	8(%r14), %r9
	leaq	-8(%r14,%r10,8), %rdx
	movq	%rbx, %rax
	subq	%r14, %rax
	movq	%r10, %rbp
	vbroadcastsd	352(%rsp), %ymm8
	cmpq	%rsi, %r9
	movq	40(%rsp), %r9
	setb	%sil
	cmpq	%rdx, %rbx
	setb	%dl
	andb	%sil, %dl
	movabsq	$1152921504606846960, %rsi
	movb	%dl, 6(%rsp)
	leaq	8(%rsi), %rdx
	andq	40(%rsp), %rdx
	leaq	12(%rsi), %rdi
	vmovupd	%ymm8, 592(%rsp)
	movq	%rdx, 528(%rsp)
	orq	$1, %rdx
	cmpq	$4, 40(%rsp)
	movq	%rdx, 152(%rsp)
	setb	%dl
	cmpq	$128, %rax
	setb	%al
	andq	40(%rsp), %rdi
	andq	%rsi, %r9
	movabsq	$.LCPI0_1, %rsi
	orb	%dl, %al
	movq	%r9, 464(%rsp)
	orq	$1, %r9
	xorl	%edx, %edx
	vmovsd	(%rsi), %xmm9
	movb	%al, 368(%rsp)
	movl	$0, %eax
	movq	%r9, 128(%rsp)
	movq	8(%rsp), %r9
	movq	%rax, 24(%rsp)
	movq	104(%rsp), %rax
	movq	%rdi, 496(%rsp)
	orq	$1, %rdi
	subq	$2, %rbp
	cmovbq	%rdx, %rbp
	movabsq	$.LCPI0_0, %rdx
	movq	%rdi, 144(%rsp)
	vbroadcastsd	(%rdx), %ymm10
	incq	%rbp
	vmovsd	%xmm9, 160(%rsp)
	vmovupd	%ymm10, 560(%rsp)
	jmp	.LBB0_13
	.p2align	4
.LBB0_12:
	movq	96(%rsp), %rax
	movq	88(%rsp), %r13
	cmpq	$1, %rax
	leaq	-1(%rax), %rax
	jbe	.LBB0_34
.LBB0_13:
	vxorpd	%xmm0, %xmm0, %xmm0
	movq	%rax, 96(%rsp)
	vmovupd	%ymm0, 224(%rsp)
	vmovupd	%ymm0, 192(%rsp)
	subq	$8, %rsp
	.cfi_adjust_cfa_offset 8
	leaq	200(%rsp), %rdi
	leaq	192(%rsp), %rsi
	movq	%r12, %rdx
	pushq	840(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	pushq	208(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	160(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	216(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	168(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	88(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	%r11
	.cfi_adjust_cfa_offset 8
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	pushq	152(%rsp)
	.cfi_adjust_cfa_offset 8
	movabsq	$_ZN7adtrans7targets11cpu_runtime15tape_push_arrayB3v35B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE, %rax
	vzeroupper
	callq	*%rax
	addq	$96, %rsp
	.cfi_adjust_cfa_offset -96
	testl	%eax, %eax
	jne	.LBB0_37
	movq	200(%rsp), %rcx
	movq	208(%rsp), %rdx
	movq	192(%rsp), %rax
	movq	%r12, %rdi
	movq	40(%rsp), %r12
	movq	%rcx, 48(%rsp)
	movq	216(%rsp), %rcx
	movq	%rdx, 16(%rsp)
	movq	224(%rsp), %rdx
	movq	%rax, 32(%rsp)
	cmpq	$8, %r12
	movabsq	$NRT_decref, %rax
	setb	%r13b
	movq	%rcx, 8(%rsp)
	movq	248(%rsp), %rcx
	movq	%rdx, 64(%rsp)
	movq	%rcx, 24(%rsp)
	movq	232(%rsp), %rcx
	movq	%rcx, 88(%rsp)
	movq	240(%rsp), %rcx
	movq	%rcx, 56(%rsp)
	callq	*%rax
	vmovapd	352(%rsp), %xmm7
	vmovupd	592(%rsp), %ymm8
	vmovsd	160(%rsp), %xmm9
	vmovupd	560(%rsp), %ymm10
	orb	6(%rsp), %r13b
	movq	824(%rsp), %r10
	movl	$1, %eax
	movq	%r12, %rsi
	testb	$1, %r13b
	jne	.LBB0_18
	movq	528(%rsp), %rcx
	xorl	%eax, %eax
	.p2align	4
.LBB0_16:
	vmovupd	8(%rbx,%rax,8), %ymm1
	vmovupd	40(%rbx,%rax,8), %ymm3
	vmovupd	(%rbx,%rax,8), %ymm0
	vmovupd	32(%rbx,%rax,8), %ymm2
	vaddpd	%ymm1, %ymm1, %ymm6
	vaddpd	%ymm3, %ymm3, %ymm11
	vmulpd	%ymm1, %ymm1, %ymm4
	vmulpd	%ymm3, %ymm3, %ymm5
	vsubpd	%ymm6, %ymm0, %ymm0
	vsubpd	%ymm11, %ymm2, %ymm2
	vaddpd	16(%rbx,%rax,8), %ymm0, %ymm0
	vaddpd	48(%rbx,%rax,8), %ymm2, %ymm2
	vmulpd	%ymm4, %ymm1, %ymm4
	vmulpd	%ymm5, %ymm3, %ymm5
	vmulpd	%ymm4, %ymm10, %ymm4
	vmulpd	%ymm0, %ymm8, %ymm0
	vmulpd	%ymm2, %ymm8, %ymm2
	vaddpd	%ymm0, %ymm1, %ymm0
	vaddpd	%ymm2, %ymm3, %ymm1
	vmulpd	%ymm5, %ymm10, %ymm3
	vsubpd	%ymm4, %ymm0, %ymm0
	vsubpd	%ymm3, %ymm1, %ymm1
	vmovupd	%ymm0, 8(%r14,%rax,8)
	vmovupd	%ymm1, 40(%r14,%rax,8)
	addq	$8, %rax
	cmpq	%rax, %rcx
	jne	.LBB0_16
	movq	152(%rsp), %rax
	cmpq	%rcx, %rsi
	je	.LBB0_19
	.p2align	4
.LBB0_18:
	vmovsd	(%rbx,%rax,8), %xmm1
	vmovsd	-8(%rbx,%rax,8), %xmm0
	vaddsd	%xmm1, %xmm1, %xmm3
	vmulsd	%xmm1, %xmm1, %xmm2
	vsubsd	%xmm3, %xmm0, %xmm0
	vaddsd	8(%rbx,%rax,8), %xmm0, %xmm0
	vmulsd	%xmm2, %xmm1, %xmm2
	vmulsd	%xmm2, %xmm9, %xmm2
	vmulsd	%xmm0, %xmm7, %xmm0
	vaddsd	%xmm0, %xmm1, %xmm0
	vaddsd	%xmm2, %xmm0, %xmm0
	vmovsd	%xmm0, (%r14,%rax,8)
	incq	%rax
	cmpq	%rax, %rbp
	jne	.LBB0_18
.LBB0_19:
	cmpb	$0, 368(%rsp)
	movq	56(%rsp), %r11
	movq	16(%rsp), %r8
	movq	48(%rsp), %rcx
	movq	8(%rsp), %r9
	movq	32(%rsp), %r12
	movl	$1, %eax
	jne	.LBB0_29
	cmpq	$16, %rsi
	jae	.LBB0_22
	xorl	%edx, %edx
	jmp	.LBB0_26
	.p2align	4
.LBB0_22:
	movq	464(%rsp), %rdx
	xorl	%eax, %eax
	.p2align	4
.LBB0_23:
	vmovupd	8(%r14,%rax,8), %ymm0
	vmovupd	40(%r14,%rax,8), %ymm1
	vmovupd	72(%r14,%rax,8), %ymm2
	vmovupd	104(%r14,%rax,8), %ymm3
	vmovupd	%ymm0, 8(%rbx,%rax,8)
	vmovupd	%ymm1, 40(%rbx,%rax,8)
	vmovupd	%ymm2, 72(%rbx,%rax,8)
	vmovupd	%ymm3, 104(%rbx,%rax,8)
	addq	$16, %rax
	cmpq	%rax, %rdx
	jne	.LBB0_23
	cmpq	%rdx, %rsi
	je	.LBB0_12
	movq	464(%rsp), %rdx
	movq	128(%rsp), %rax
	testb	$12, %sil
	je	.LBB0_29
.LBB0_26:
	movq	496(%rsp), %rax
	.p2align	4
.LBB0_27:
	vmovupd	8(%r14,%rdx,8), %ymm0
	vmovupd	%ymm0, 8(%rbx,%rdx,8)
	addq	$4, %rdx
	cmpq	%rdx, %rax
	jne	.LBB0_27
	movq	%rax, %rdx
	movq	144(%rsp), %rax
	cmpq	%rdx, %rsi
	je	.LBB0_12
	.p2align	4
.LBB0_29:
	vmovsd	(%r14,%rax,8), %xmm0
	vmovsd	%xmm0, (%rbx,%rax,8)
	incq	%rax
	cmpq	%rax, %rbp
	jne	.LBB0_29
	jmp	.LBB0_12
.LBB0_30:
	movq	56(%rsp), %r11
	movq	16(%rsp), %r8
	movq	48(%rsp), %rcx
	movq	8(%rsp), %r9
	movq	32(%rsp), %r12
	movq	$0, 24(%rsp)
	jmp	.LBB0_34
.LBB0_31:
	movq	104(%rsp), %rax
	movq	8(%rsp), %r9
	movq	$0, 24(%rsp)
	movq	%r12, %rbp
	leaq	1(%rax), %r14
	.p2align	4
.LBB0_32:
	vxorpd	%xmm0, %xmm0, %xmm0
	vmovupd	%ymm0, 224(%rsp)
	vmovupd	%ymm0, 192(%rsp)
	subq	$8, %rsp
	.cfi_adjust_cfa_offset 8
	leaq	200(%rsp), %rdi
	leaq	192(%rsp), %rsi
	movq	%rbp, %rdx
	pushq	840(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	pushq	208(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	160(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	216(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	168(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	88(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	%r11
	.cfi_adjust_cfa_offset 8
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	pushq	152(%rsp)
	.cfi_adjust_cfa_offset 8
	movabsq	$_ZN7adtrans7targets11cpu_runtime15tape_push_arrayB3v35B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE, %rax
	vzeroupper
	callq	*%rax
	addq	$96, %rsp
	.cfi_adjust_cfa_offset -96
	testl	%eax, %eax
	jne	.LBB0_37
	movq	224(%rsp), %rdx
	movq	216(%rsp), %rcx
	movq	248(%rsp), %rax
	movq	%r14, %r12
	movq	%rbp, %rdi
	movq	200(%rsp), %r14
	movq	232(%rsp), %r13
	movq	240(%rsp), %rbp
	movq	%rdx, 64(%rsp)
	movq	%rcx, 8(%rsp)
	movq	208(%rsp), %rdx
	movq	192(%rsp), %rcx
	movq	%rax, 24(%rsp)
	movabsq	$NRT_decref, %rax
	movq	%rdx, 16(%rsp)
	movq	%rcx, 32(%rsp)
	callq	*%rax
	movq	%r14, %rcx
	movq	%r12, %r14
	movq	8(%rsp), %r9
	movq	16(%rsp), %r8
	movq	32(%rsp), %r12
	movq	824(%rsp), %r10
	decq	%r14
	movq	%rbp, %r11
	movq	%r12, %rbp
	cmpq	$1, %r14
	jg	.LBB0_32
.LBB0_34:
	movq	136(%rsp), %rdi
	movq	%r12, 32(%rsp)
	movq	872(%rsp), %r12
	movabsq	$NRT_decref, %rax
	movq	%r9, 8(%rsp)
	movq	%rcx, 48(%rsp)
	movq	%r8, 16(%rsp)
	movq	%r11, 56(%rsp)
	movq	%r13, 88(%rsp)
	vzeroupper
	callq	*%rax
	vmovapd	336(%rsp), %xmm9
	movq	824(%rsp), %r10
	movq	24(%rsp), %r13
	testq	%r10, %r10
	je	.LBB0_54
	cmpq	$4, %r10
	jb	.LBB0_36
	leaq	(%rbx,%r10,8), %rcx
	leaq	(%r12,%r10,8), %rax
	cmpq	%rcx, %r12
	setb	%cl
	cmpq	%rax, %rbx
	setb	%al
	testb	%al, %cl
	je	.LBB0_40
.LBB0_36:
	xorl	%eax, %eax
.LBB0_49:
	movl	%r10d, %edx
	subl	%eax, %edx
	movq	%rax, %rcx
	andl	$7, %edx
	je	.LBB0_52
	movq	%rax, %rcx
	.p2align	4
.LBB0_51:
	vmulsd	(%rbx,%rcx,8), %xmm9, %xmm0
	decq	%rdx
	vaddsd	(%r12,%rcx,8), %xmm0, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	vmovsd	%xmm0, (%r12,%rcx,8)
	leaq	1(%rcx), %rcx
	jne	.LBB0_51
.LBB0_52:
	subq	%r10, %rax
	cmpq	$-8, %rax
	ja	.LBB0_54
	.p2align	4
.LBB0_53:
	vmulsd	(%rbx,%rcx,8), %xmm9, %xmm0
	vaddsd	(%r12,%rcx,8), %xmm0, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	vmovsd	%xmm0, (%r12,%rcx,8)
	vmulsd	8(%rbx,%rcx,8), %xmm9, %xmm0
	vaddsd	8(%r12,%rcx,8), %xmm0, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	vmovsd	%xmm0, 8(%r12,%rcx,8)
	vmulsd	16(%rbx,%rcx,8), %xmm9, %xmm0
	vaddsd	16(%r12,%rcx,8), %xmm0, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	vmovsd	%xmm0, 16(%r12,%rcx,8)
	vmulsd	24(%rbx,%rcx,8), %xmm9, %xmm0
	vaddsd	24(%r12,%rcx,8), %xmm0, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	vmovsd	%xmm0, 24(%r12,%rcx,8)
	vmulsd	32(%rbx,%rcx,8), %xmm9, %xmm0
	vaddsd	32(%r12,%rcx,8), %xmm0, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	vmovsd	%xmm0, 32(%r12,%rcx,8)
	vmulsd	40(%rbx,%rcx,8), %xmm9, %xmm0
	vaddsd	40(%r12,%rcx,8), %xmm0, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	vmovsd	%xmm0, 40(%r12,%rcx,8)
	vmulsd	48(%rbx,%rcx,8), %xmm9, %xmm0
	vaddsd	48(%r12,%rcx,8), %xmm0, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	vmovsd	%xmm0, 48(%r12,%rcx,8)
	vmulsd	56(%rbx,%rcx,8), %xmm9, %xmm0
	vaddsd	56(%r12,%rcx,8), %xmm0, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	vmovsd	%xmm0, 56(%r12,%rcx,8)
	addq	$8, %rcx
	cmpq	%rcx, %r10
	jne	.LBB0_53
.LBB0_54:
	vmovapd	352(%rsp), %xmm0
	cmpq	$0, 896(%rsp)
	jle	.LBB0_103
	leaq	-2(%r10), %rsi
	movabsq	$.LCPI0_2, %rax
	cmpq	$5, %r10
	movl	$4, %edi
	vbroadcastsd	%xmm0, %ymm2
	movl	$2, %r11d
	movq	%r10, %rcx
	leaq	8(%r15), %r9
	vxorpd	%xmm9, %xmm9, %xmm9
	vxorpd	(%rax), %xmm2, %xmm3
	cmovgeq	%r10, %rdi
	movq	%rsi, %rax
	sarq	$63, %rax
	movq	%rsi, 96(%rsp)
	andnq	%rsi, %rax, %rax
	cmpq	$3, %rsi
	leaq	-4(%rdi), %r8
	leaq	(,%rdi,8), %rdx
	vmovupd	%ymm2, 592(%rsp)
	cmovgeq	%rsi, %r11
	shlq	$3, %rax
	movq	%r8, 320(%rsp)
	subq	%r11, %rcx
	movq	%rax, 144(%rsp)
	testq	%r8, %r8
	movl	$1, %eax
	movq	%r11, 136(%rsp)
	cmovleq	%r8, %rax
	movq	%rcx, 160(%rsp)
	decq	%rcx
	leaq	(,%rax,8), %r14
	movq	%rcx, 432(%rsp)
	subq	%r14, %rdx
	leaq	-8(%r12,%rdx), %rbp
	addq	$-8, %rdx
	vbroadcastsd	%xmm3, %ymm8
	vmovapd	%xmm3, 368(%rsp)
	movq	%rdx, 424(%rsp)
	leaq	(%r15,%rdi,8), %rdx
	subq	%rax, %rdi
	leaq	8(%r12), %rax
	movq	%rbp, 312(%rsp)
	leaq	-8(%r12,%r10,8), %rbp
	addq	$-3, %rdi
	vmovupd	%ymm8, 496(%rsp)
	subq	%r14, %rdx
	leaq	-8(%r15,%r10,8), %r14
	movq	%rdi, 336(%rsp)
	cmpq	%r14, %rax
	setb	%al
	cmpq	%rbp, %r9
	setb	%r9b
	andb	%al, %r9b
	leaq	16(%r12), %rax
	movb	%r9b, 6(%rsp)
	movq	%rsi, %r9
	andq	$-8, %r9
	andl	$7, %esi
	cmpq	%rdx, %rax
	movabsq	$.LCPI0_3, %rax
	leaq	8(%r15), %rdx
	movq	%rsi, 448(%rsp)
	movabsq	$.LCPI0_1, %rsi
	vmovsd	(%rax), %xmm6
	vbroadcastsd	(%rax), %ymm7
	setb	%al
	cmpq	312(%rsp), %rdx
	movq	%r9, 456(%rsp)
	vmovsd	(%rsi), %xmm4
	vbroadcastsd	(%rsi), %ymm5
	leaq	1(%r11), %rsi
	movq	%rsi, 40(%rsp)
	setb	%dl
	andq	$-4, %rdi
	negq	%r9
	andb	%al, %dl
	subq	%rdi, %r8
	movq	%r9, 440(%rsp)
	movq	%rdi, 400(%rsp)
	movb	%dl, 7(%rsp)
	leaq	-1(%r10), %rdx
	movq	%r8, 392(%rsp)
	movq	%rdx, 128(%rsp)
	leaq	2(%rdi), %rdx
	vmovsd	%xmm6, 152(%rsp)
	vmovupd	%ymm7, 464(%rsp)
	movq	%rdx, 384(%rsp)
	vmovsd	%xmm4, 560(%rsp)
	vmovupd	%ymm5, 528(%rsp)
	jmp	.LBB0_58
	.p2align	4
.LBB0_56:
	movabsq	$NRT_decref, %rax
	callq	*%rax
	movq	24(%rsp), %r13
.LBB0_57:
	movq	104(%rsp), %rax
	movq	824(%rsp), %r10
	vxorpd	%xmm9, %xmm9, %xmm9
	cmpq	$1, %rax
	leaq	-1(%rax), %rax
	movq	%rax, 104(%rsp)
	jle	.LBB0_103
.LBB0_58:
	movq	56(%rsp), %r11
	movq	16(%rsp), %r8
	movq	48(%rsp), %rcx
	movq	8(%rsp), %r9
	cmpq	$3, %r10
	jb	.LBB0_65
	movq	96(%rsp), %rax
	cmpq	$8, %rax
	setb	%dl
	orb	6(%rsp), %dl
	testb	$1, %dl
	jne	.LBB0_63
	movq	440(%rsp), %rdx
	xorl	%eax, %eax
	.p2align	4
.LBB0_61:
	vmovupd	-64(%rbp,%rax,8), %ymm0
	vmovupd	-32(%rbp,%rax,8), %ymm1
	vmovupd	%ymm9, -32(%rbp,%rax,8)
	vmovupd	%ymm9, -64(%rbp,%rax,8)
	vaddpd	-32(%r14,%rax,8), %ymm1, %ymm1
	vaddpd	-64(%r14,%rax,8), %ymm0, %ymm0
	vmovupd	%ymm1, -32(%r14,%rax,8)
	vmovupd	%ymm0, -64(%r14,%rax,8)
	addq	$-8, %rax
	cmpq	%rax, %rdx
	jne	.LBB0_61
	movq	448(%rsp), %rax
	movq	456(%rsp), %rdx
	cmpq	%rdx, 96(%rsp)
	je	.LBB0_65
.LBB0_63:
	incq	%rax
	.p2align	4
.LBB0_64:
	vmovsd	-8(%r12,%rax,8), %xmm0
	movq	$0, -8(%r12,%rax,8)
	vaddsd	-8(%r15,%rax,8), %xmm0, %xmm0
	vmovsd	%xmm0, -8(%r15,%rax,8)
	decq	%rax
	cmpq	$1, %rax
	ja	.LBB0_64
.LBB0_65:
	movq	120(%rsp), %rax
	vmovupd	%ymm9, 648(%rsp)
	vmovupd	%ymm9, 624(%rsp)
	subq	%rax, %r13
	subq	$8, %rsp
	.cfi_adjust_cfa_offset 8
	movq	40(%rsp), %rdx
	leaq	632(%rsp), %rdi
	leaq	336(%rsp), %rsi
	pushq	840(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	pushq	208(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	pushq	216(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	168(%rsp)
	.cfi_adjust_cfa_offset 8
	movq	%r13, 88(%rsp)
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	pushq	%r11
	.cfi_adjust_cfa_offset 8
	pushq	168(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	152(%rsp)
	.cfi_adjust_cfa_offset 8
	movabsq	$_ZN7adtrans7targets11cpu_runtime9tape_viewB3v32B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE, %rax
	movq	%r10, %r13
	vzeroupper
	callq	*%rax
	addq	$96, %rsp
	.cfi_adjust_cfa_offset -96
	testl	%eax, %eax
	jne	.LBB0_105
	movq	624(%rsp), %rdi
	cmpq	$2, %r13
	jle	.LBB0_56
	vmovapd	352(%rsp), %xmm4
	leaq	8(%r15), %rcx
	vmovapd	368(%rsp), %xmm5
	vmovsd	560(%rsp), %xmm6
	vmovsd	152(%rsp), %xmm8
	movq	%r13, %r10
	movq	656(%rsp), %rax
	movq	160(%rsp), %r8
	vmulsd	(%rcx), %xmm4, %xmm0
	vaddsd	(%r12), %xmm0, %xmm0
	vmovsd	%xmm0, (%r12)
	vxorpd	%xmm0, %xmm0, %xmm0
	cmpq	$3, %r13
	movq	24(%rsp), %r13
	je	.LBB0_69
	vmulsd	16(%r15), %xmm4, %xmm0
.LBB0_69:
	leaq	8(%r15), %rcx
	vmovsd	8(%rax), %xmm1
	vmovupd	528(%rsp), %ymm7
	vmovupd	464(%rsp), %ymm9
	vmovupd	496(%rsp), %ymm10
	vmovsd	(%rcx), %xmm2
	vmulsd	%xmm1, %xmm1, %xmm1
	vmulsd	%xmm6, %xmm2, %xmm3
	vmulsd	%xmm3, %xmm8, %xmm3
	vmulsd	%xmm1, %xmm3, %xmm1
	vmovupd	592(%rsp), %ymm3
	vaddsd	%xmm1, %xmm0, %xmm0
	vmulsd	%xmm5, %xmm2, %xmm1
	vaddsd	%xmm1, %xmm1, %xmm1
	vaddsd	%xmm0, %xmm1, %xmm0
	vaddsd	%xmm0, %xmm2, %xmm0
	vaddsd	8(%r12), %xmm0, %xmm0
	vmovsd	%xmm0, 8(%r12)
	cmpq	$5, %r10
	jb	.LBB0_78
	cmpq	$4, 336(%rsp)
	movl	$2, %ecx
	jae	.LBB0_72
	movq	320(%rsp), %rdx
	jmp	.LBB0_76
.LBB0_72:
	movq	424(%rsp), %rsi
	leaq	16(%r12), %r9
	leaq	16(%rax), %rdx
	addq	%rax, %rsi
	cmpq	%rsi, %r9
	setb	%sil
	cmpq	312(%rsp), %rdx
	setb	%dl
	andb	%sil, %dl
	orb	7(%rsp), %dl
	movq	320(%rsp), %rdx
	jne	.LBB0_76
	movq	400(%rsp), %rdx
	xorl	%ecx, %ecx
	.p2align	4
.LBB0_74:
	vmovupd	16(%r15,%rcx,8), %ymm1
	vmovupd	16(%rax,%rcx,8), %ymm0
	vmulpd	%ymm7, %ymm1, %ymm2
	vmulpd	%ymm0, %ymm0, %ymm0
	vmulpd	%ymm2, %ymm9, %ymm2
	vmulpd	%ymm0, %ymm2, %ymm0
	vmulpd	24(%r15,%rcx,8), %ymm3, %ymm2
	vaddpd	%ymm0, %ymm2, %ymm0
	vmulpd	%ymm1, %ymm10, %ymm2
	vaddpd	%ymm2, %ymm2, %ymm2
	vaddpd	%ymm0, %ymm2, %ymm0
	vmulpd	8(%r15,%rcx,8), %ymm3, %ymm2
	vaddpd	%ymm0, %ymm1, %ymm0
	vaddpd	%ymm2, %ymm0, %ymm0
	vaddpd	16(%r12,%rcx,8), %ymm0, %ymm0
	vmovupd	%ymm0, 16(%r12,%rcx,8)
	addq	$4, %rcx
	cmpq	%rcx, %rdx
	jne	.LBB0_74
	movq	%rdx, %rsi
	movq	392(%rsp), %rdx
	movq	384(%rsp), %rcx
	cmpq	%rsi, 336(%rsp)
	je	.LBB0_78
	.p2align	4
.LBB0_76:
	incq	%rdx
	shlq	$3, %rcx
	.p2align	4
.LBB0_77:
	vmovsd	(%r15,%rcx), %xmm1
	vmovsd	(%rax,%rcx), %xmm0
	decq	%rdx
	vmulsd	%xmm6, %xmm1, %xmm2
	vmulsd	%xmm0, %xmm0, %xmm0
	vmulsd	%xmm2, %xmm8, %xmm2
	vmulsd	%xmm0, %xmm2, %xmm0
	vmulsd	8(%r15,%rcx), %xmm4, %xmm2
	vaddsd	%xmm0, %xmm2, %xmm0
	vmulsd	%xmm5, %xmm1, %xmm2
	vaddsd	%xmm2, %xmm2, %xmm2
	vaddsd	%xmm0, %xmm2, %xmm0
	vmulsd	-8(%r15,%rcx), %xmm4, %xmm2
	vaddsd	%xmm0, %xmm1, %xmm0
	vaddsd	%xmm2, %xmm0, %xmm0
	vaddsd	(%r12,%rcx), %xmm0, %xmm0
	vmovsd	%xmm0, (%r12,%rcx)
	addq	$8, %rcx
	cmpq	$1, %rdx
	jg	.LBB0_77
.LBB0_78:
	testq	%r8, %r8
	jle	.LBB0_87
	movq	136(%rsp), %rsi
	movq	880(%rsp), %r11
	movq	128(%rsp), %r13
	movq	%r8, %rcx
	movq	%rsi, %rdx
	testb	$1, %r8b
	je	.LBB0_85
	vxorpd	%xmm0, %xmm0, %xmm0
	cmpq	%r13, 40(%rsp)
	jge	.LBB0_82
	vmulsd	8(%r15,%rsi,8), %xmm4, %xmm0
.LBB0_82:
	cmpq	$3, %r10
	je	.LBB0_84
	vmovsd	(%r15,%rsi,8), %xmm2
	vmovsd	(%rax,%rsi,8), %xmm1
	vmulsd	%xmm6, %xmm2, %xmm3
	vmulsd	%xmm1, %xmm1, %xmm1
	vmulsd	%xmm3, %xmm8, %xmm3
	vmulsd	%xmm1, %xmm3, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	vmulsd	%xmm5, %xmm2, %xmm1
	vaddsd	%xmm1, %xmm1, %xmm1
	vaddsd	%xmm0, %xmm1, %xmm0
	vaddsd	%xmm0, %xmm2, %xmm0
.LBB0_84:
	vmulsd	-8(%r15,%rsi,8), %xmm4, %xmm1
	movq	432(%rsp), %rcx
	movq	40(%rsp), %rdx
	vaddsd	%xmm1, %xmm0, %xmm0
	vaddsd	(%r12,%rsi,8), %xmm0, %xmm0
	vmovsd	%xmm0, (%r12,%rsi,8)
.LBB0_85:
	cmpq	40(%rsp), %r10
	jne	.LBB0_89
.LBB0_86:
	movabsq	$NRT_decref, %rax
	movq	%r10, %r13
	vzeroupper
	callq	*%rax
	cmpq	$3, %r13
	movq	24(%rsp), %r13
	jl	.LBB0_57
	jmp	.LBB0_88
.LBB0_87:
	movabsq	$NRT_decref, %rax
	vzeroupper
	callq	*%rax
.LBB0_88:
	movq	144(%rsp), %rdx
	leaq	8(%r15), %rdi
	movabsq	$memset, %rax
	xorl	%esi, %esi
	callq	*%rax
	jmp	.LBB0_57
.LBB0_89:
	addq	$2, %rcx
	jmp	.LBB0_91
	.p2align	4
.LBB0_90:
	movq	%rsi, %r8
	sarq	$63, %r8
	addq	$-2, %rcx
	incq	%rsi
	andq	%r11, %r8
	leaq	(%r12,%r8,8), %r8
	vaddsd	8(%r8,%rdx,8), %xmm0, %xmm0
	vmovsd	%xmm0, 8(%r8,%rdx,8)
	movq	%rsi, %rdx
	cmpq	$2, %rcx
	jle	.LBB0_86
.LBB0_91:
	testq	%rdx, %rdx
	leaq	1(%rdx), %rsi
	vxorpd	%xmm0, %xmm0, %xmm0
	sets	%r8b
	cmpq	%r13, %rsi
	setge	%r9b
	orb	%r8b, %r9b
	jne	.LBB0_93
	vmulsd	8(%r15,%rdx,8), %xmm4, %xmm0
.LBB0_93:
	decq	%rsi
	testq	%rsi, %rsi
	setle	%r8b
	cmpq	%r13, %rsi
	setge	%r9b
	orb	%r8b, %r9b
	jne	.LBB0_95
	vmovsd	(%r15,%rdx,8), %xmm2
	vmovsd	(%rax,%rdx,8), %xmm1
	vmulsd	%xmm6, %xmm2, %xmm3
	vmulsd	%xmm1, %xmm1, %xmm1
	vmulsd	%xmm3, %xmm8, %xmm3
	vmulsd	%xmm1, %xmm3, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	vmulsd	%xmm5, %xmm2, %xmm1
	vaddsd	%xmm1, %xmm1, %xmm1
	vaddsd	%xmm0, %xmm1, %xmm0
	vaddsd	%xmm0, %xmm2, %xmm0
.LBB0_95:
	cmpq	$2, %rsi
	setl	%r8b
	cmpq	%r10, %rsi
	setge	%r9b
	orb	%r8b, %r9b
	jne	.LBB0_97
	vmulsd	-8(%r15,%rdx,8), %xmm4, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
.LBB0_97:
	movq	%rsi, %r8
	sarq	$63, %r8
	andq	%r11, %r8
	leaq	(%r12,%r8,8), %r8
	vaddsd	(%r8,%rdx,8), %xmm0, %xmm0
	vmovsd	%xmm0, (%r8,%rdx,8)
	movq	%rsi, %r8
	incq	%r8
	vxorpd	%xmm0, %xmm0, %xmm0
	sets	%r8b
	addq	$2, %rsi
	cmpq	%r13, %rsi
	setge	%r9b
	orb	%r8b, %r9b
	jne	.LBB0_99
	vmulsd	16(%r15,%rdx,8), %xmm4, %xmm0
.LBB0_99:
	leaq	-2(%rsi), %r8
	movabsq	$9223372036854775806, %r9
	cmpq	%r9, %r8
	seta	%r8b
	decq	%rsi
	cmpq	%r13, %rsi
	setge	%r9b
	orb	%r8b, %r9b
	jne	.LBB0_101
	vmovsd	8(%r15,%rdx,8), %xmm2
	vmovsd	8(%rax,%rdx,8), %xmm1
	vmulsd	%xmm6, %xmm2, %xmm3
	vmulsd	%xmm1, %xmm1, %xmm1
	vmulsd	%xmm3, %xmm8, %xmm3
	vmulsd	%xmm1, %xmm3, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	vmulsd	%xmm5, %xmm2, %xmm1
	vaddsd	%xmm1, %xmm1, %xmm1
	vaddsd	%xmm0, %xmm1, %xmm0
	vaddsd	%xmm0, %xmm2, %xmm0
.LBB0_101:
	cmpq	$2, %rsi
	setl	%r8b
	cmpq	%r10, %rsi
	setge	%r9b
	orb	%r8b, %r9b
	jne	.LBB0_90
	vmulsd	(%r15,%rdx,8), %xmm4, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	jmp	.LBB0_90
.LBB0_103:
	movq	904(%rsp), %r14
	movabsq	$NRT_incref, %rbx
	movq	$0, 72(%rsp)
	movq	%r14, %rdi
	vzeroupper
	callq	*%rbx
	movq	32(%rsp), %r13
	movq	%r13, %rdi
	callq	*%rbx
	movq	912(%rsp), %rcx
	xorl	%r15d, %r15d
	movabsq	$_ZN5numba5typed10listobject12impl_setitem12_3clocals_3e12impl_integerB3v34B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx5ArrayIdLi1E1C7mutable7alignedE, %rax
	leaq	256(%rsp), %rdi
	leaq	72(%rsp), %rsi
	movq	%r14, %rdx
	xorl	%r8d, %r8d
	movq	%r13, %r9
	pushq	56(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	96(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	80(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	32(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	48(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	88(%rsp)
	.cfi_adjust_cfa_offset 8
	callq	*%rax
	addq	$48, %rsp
	.cfi_adjust_cfa_offset -48
	movq	112(%rsp), %rdi
	movabsq	$NRT_decref, %r12
	movl	%eax, %ebx
	callq	*%r12
	movq	840(%rsp), %rdi
	callq	*%r12
	movq	416(%rsp), %rdi
	callq	*%r12
	testl	%ebx, %ebx
	jne	.LBB0_110
	movq	%r13, %rdi
	callq	*%r12
	movq	%r14, %rdi
	callq	*%r12
	movq	%r14, %rdi
	callq	*%r12
	movq	%r13, %rdi
	callq	*%r12
	movq	408(%rsp), %rax
	movq	$0, (%rax)
	jmp	.LBB0_108
.LBB0_37:
	movq	184(%rsp), %rax
	jmp	.LBB0_106
.LBB0_105:
	movq	328(%rsp), %rax
.LBB0_106:
	movq	80(%rsp), %rcx
	movq	%rax, (%rcx)
.LBB0_107:
	movl	$1, %r15d
.LBB0_108:
	movl	%r15d, %eax
	addq	$760, %rsp
	.cfi_def_cfa_offset 56
	popq	%rbx
	.cfi_def_cfa_offset 48
	popq	%r12
	.cfi_def_cfa_offset 40
	popq	%r13
	.cfi_def_cfa_offset 32
	popq	%r14
	.cfi_def_cfa_offset 24
	popq	%r15
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	retq
.LBB0_40:
	.cfi_def_cfa_offset 816
	cmpq	$16, %r10
	jae	.LBB0_42
	xorl	%eax, %eax
	jmp	.LBB0_46
.LBB0_42:
	movabsq	$1152921504606846960, %rcx
	vbroadcastsd	%xmm9, %ymm0
	movq	%r10, %rax
	andq	%rcx, %rax
	xorl	%ecx, %ecx
	.p2align	4
.LBB0_43:
	vmulpd	(%rbx,%rcx,8), %ymm0, %ymm1
	vmulpd	32(%rbx,%rcx,8), %ymm0, %ymm2
	vmulpd	64(%rbx,%rcx,8), %ymm0, %ymm3
	vmulpd	96(%rbx,%rcx,8), %ymm0, %ymm4
	vaddpd	(%r12,%rcx,8), %ymm1, %ymm5
	vaddpd	32(%r12,%rcx,8), %ymm2, %ymm6
	vaddpd	64(%r12,%rcx,8), %ymm3, %ymm7
	vaddpd	96(%r12,%rcx,8), %ymm4, %ymm8
	vaddpd	%ymm5, %ymm1, %ymm1
	vaddpd	%ymm6, %ymm2, %ymm2
	vaddpd	%ymm7, %ymm3, %ymm3
	vaddpd	%ymm4, %ymm8, %ymm4
	vmovupd	%ymm1, (%r12,%rcx,8)
	vmovupd	%ymm2, 32(%r12,%rcx,8)
	vmovupd	%ymm3, 64(%r12,%rcx,8)
	vmovupd	%ymm4, 96(%r12,%rcx,8)
	addq	$16, %rcx
	cmpq	%rcx, %rax
	jne	.LBB0_43
	cmpq	%rax, %r10
	je	.LBB0_54
	testb	$12, %r10b
	je	.LBB0_49
.LBB0_46:
	movq	%rax, %rcx
	movabsq	$1152921504606846960, %rax
	vbroadcastsd	%xmm9, %ymm0
	addq	$12, %rax
	andq	%r10, %rax
	.p2align	4
.LBB0_47:
	vmulpd	(%rbx,%rcx,8), %ymm0, %ymm1
	vaddpd	(%r12,%rcx,8), %ymm1, %ymm2
	vaddpd	%ymm2, %ymm1, %ymm1
	vmovupd	%ymm1, (%r12,%rcx,8)
	addq	$4, %rcx
	cmpq	%rcx, %rax
	jne	.LBB0_47
	cmpq	%rax, %r10
	je	.LBB0_54
	jmp	.LBB0_49
.LBB0_109:
	movq	72(%rsp), %rax
	movq	%rax, (%r15)
	jmp	.LBB0_107
.LBB0_110:
	movq	72(%rsp), %rax
	jmp	.LBB0_106
.LBB0_111:
	movabsq	$.const.picklebuf.331b8563bdb9dac81b38422273052c486fc1706b, %rax
	jmp	.LBB0_106
.LBB0_112:
	movabsq	$.const.picklebuf.58e14eccb507b1e0206981740223e685cb8c3c57, %rax
	jmp	.LBB0_106
.LBB0_113:
	movabsq	$.const.picklebuf.ba289d81f05c7020f3477c15734804df65abe209, %rax
	jmp	.LBB0_106
.LBB0_114:
	movabsq	$.const.picklebuf.ba289d81f05c7020f3477c15734804df65abe209.13, %rax
	jmp	.LBB0_106
.Lfunc_end0:
	.size	_ZN2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d, .Lfunc_end0-_ZN2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d
	.cfi_endproc

	.globl	_ZN7cpython2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d
	.p2align	4
	.type	_ZN7cpython2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d,@function
_ZN7cpython2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	pushq	%r15
	.cfi_def_cfa_offset 24
	pushq	%r14
	.cfi_def_cfa_offset 32
	pushq	%r13
	.cfi_def_cfa_offset 40
	pushq	%r12
	.cfi_def_cfa_offset 48
	pushq	%rbx
	.cfi_def_cfa_offset 56
	subq	$280, %rsp
	.cfi_def_cfa_offset 336
	.cfi_offset %rbx, -56
	.cfi_offset %r12, -48
	.cfi_offset %r13, -40
	.cfi_offset %r14, -32
	.cfi_offset %r15, -24
	.cfi_offset %rbp, -16
	leaq	96(%rsp), %r10
	movq	%rsi, %rdi
	xorl	%ebx, %ebx
	leaq	104(%rsp), %r11
	leaq	112(%rsp), %r14
	leaq	120(%rsp), %r15
	movabsq	$.const.heat_time_loop_adjoint, %rsi
	movabsq	$PyArg_UnpackTuple, %r12
	leaq	136(%rsp), %r8
	leaq	128(%rsp), %r9
	movl	$6, %edx
	movl	$6, %ecx
	xorl	%eax, %eax
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	pushq	%r11
	.cfi_adjust_cfa_offset 8
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	callq	*%r12
	addq	$32, %rsp
	.cfi_adjust_cfa_offset -32
	movq	$0, 16(%rsp)
	testl	%eax, %eax
	je	.LBB1_13
	movabsq	$_ZN08NumbaEnv2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d, %rax
	cmpq	$0, (%rax)
	je	.LBB1_17
	movq	136(%rsp), %rdi
	movabsq	$NRT_adapt_ndarray_from_python, %rbx
	leaq	144(%rsp), %rsi
	vxorps	%xmm0, %xmm0, %xmm0
	vmovups	%ymm0, 144(%rsp)
	vmovups	%ymm0, 168(%rsp)
	vzeroupper
	callq	*%rbx
	testl	%eax, %eax
	jne	.LBB1_18
	cmpq	$8, 168(%rsp)
	jne	.LBB1_18
	movq	192(%rsp), %rax
	movq	128(%rsp), %rdi
	movq	144(%rsp), %r13
	movq	152(%rsp), %r14
	movq	160(%rsp), %r15
	movq	176(%rsp), %r12
	movq	184(%rsp), %rbp
	leaq	208(%rsp), %rsi
	vxorps	%xmm0, %xmm0, %xmm0
	vmovups	%ymm0, 208(%rsp)
	vmovups	%ymm0, 232(%rsp)
	movq	%rax, 88(%rsp)
	vzeroupper
	callq	*%rbx
	testl	%eax, %eax
	jne	.LBB1_20
	cmpq	$8, 232(%rsp)
	jne	.LBB1_20
	movq	240(%rsp), %rax
	movq	248(%rsp), %rcx
	movq	120(%rsp), %rdi
	movq	%r14, 80(%rsp)
	movq	208(%rsp), %r14
	movabsq	$PyNumber_Float, %rbx
	movq	%rbp, 56(%rsp)
	movq	%r12, 64(%rsp)
	movq	%r15, 72(%rsp)
	movq	%rax, 40(%rsp)
	movq	%rcx, 32(%rsp)
	callq	*%rbx
	movabsq	$PyFloat_AsDouble, %r12
	movq	%rax, %rdi
	movq	%rax, %r15
	callq	*%r12
	movabsq	$Py_DecRef, %rax
	movq	%r15, %rdi
	vmovsd	%xmm0, 48(%rsp)
	callq	*%rax
	movabsq	$PyErr_Occurred, %rbp
	callq	*%rbp
	testq	%rax, %rax
	jne	.LBB1_23
	movq	112(%rsp), %rdi
	movabsq	$PyNumber_Long, %rax
	callq	*%rax
	testq	%rax, %rax
	je	.LBB1_21
	movq	%rax, %r15
	movabsq	$PyLong_AsLongLong, %rax
	movq	%r15, %rdi
	callq	*%rax
	movq	%rax, 8(%rsp)
	movabsq	$Py_DecRef, %rax
	movq	%r15, %rdi
	callq	*%rax
	callq	*%rbp
	testq	%rax, %rax
	jne	.LBB1_23
.LBB1_9:
	movq	104(%rsp), %rdi
	callq	*%rbx
	movq	%rax, %rdi
	movq	%rax, %r15
	callq	*%r12
	movabsq	$Py_DecRef, %rax
	movq	%r15, %rdi
	vmovsd	%xmm0, 24(%rsp)
	callq	*%rax
	callq	*%rbp
	testq	%rax, %rax
	jne	.LBB1_23
	movq	96(%rsp), %rbp
	movabsq	$.const.pickledata.115b48f334cf14371ab26ff563640f094b27e783, %rdi
	movabsq	$.const.pickledata.115b48f334cf14371ab26ff563640f094b27e783.sha1, %rdx
	movabsq	$numba_unpickle, %rax
	movl	$45, %esi
	movq	%r14, (%rsp)
	callq	*%rax
	movabsq	$PyObject_Type, %rbx
	movq	%rbp, %rdi
	movq	%rax, %r12
	callq	*%rbx
	movq	%rax, %r14
	cmpq	%r12, %rax
	jne	.LBB1_22
	movabsq	$.const._opaque, %rsi
	movabsq	$PyObject_GetAttrString, %rax
	movq	%rbp, %rdi
	callq	*%rax
	movq	%rax, %rbx
	movabsq	$NRT_meminfo_from_pyobject, %rax
	movq	%rbx, %rdi
	callq	*%rax
	movq	%rax, %rbp
	movq	24(%rax), %rax
	movq	%r13, %r15
	movq	%rbx, %rdi
	movabsq	$Py_DecRef, %rbx
	movq	(%rax), %r13
	callq	*%rbx
	movq	%r12, %rdi
	callq	*%rbx
	movq	%r14, %rdi
	callq	*%rbx
	subq	$112, %rsp
	.cfi_adjust_cfa_offset 112
	movq	144(%rsp), %rcx
	movq	152(%rsp), %rdx
	vmovsd	160(%rsp), %xmm0
	vmovsd	136(%rsp), %xmm1
	movq	120(%rsp), %rax
	movq	%r13, 96(%rsp)
	movq	112(%rsp), %r13
	movq	184(%rsp), %r8
	leaq	384(%rsp), %rdi
	leaq	128(%rsp), %rsi
	movl	$8, %r9d
	movq	%rbp, 88(%rsp)
	movq	%rcx, 64(%rsp)
	movq	200(%rsp), %rcx
	movq	%rdx, 56(%rsp)
	movq	168(%rsp), %rdx
	movq	%rax, 80(%rsp)
	movabsq	$_ZN2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d, %rax
	movq	%r13, 24(%rsp)
	movq	%rcx, 16(%rsp)
	movq	176(%rsp), %rcx
	movq	%rdx, 8(%rsp)
	movq	%r15, %rdx
	movq	%rcx, (%rsp)
	movq	192(%rsp), %rcx
	callq	*%rax
	addq	$112, %rsp
	.cfi_adjust_cfa_offset -112
	movq	16(%rsp), %r12
	movabsq	$NRT_decref, %r14
	movq	%r15, %rdi
	movl	%eax, %ebx
	callq	*%r14
	movq	%r13, %rdi
	callq	*%r14
	movq	%rbp, %rdi
	callq	*%r14
	testl	%ebx, %ebx
	jne	.LBB1_14
	movabsq	$_Py_NoneStruct, %rbx
	movabsq	$Py_IncRef, %rax
	movq	%rbx, %rdi
	callq	*%rax
.LBB1_13:
	movq	%rbx, %rax
	addq	$280, %rsp
	.cfi_def_cfa_offset 56
	popq	%rbx
	.cfi_def_cfa_offset 48
	popq	%r12
	.cfi_def_cfa_offset 40
	popq	%r13
	.cfi_def_cfa_offset 32
	popq	%r14
	.cfi_def_cfa_offset 24
	popq	%r15
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	retq
.LBB1_14:
	.cfi_def_cfa_offset 336
	movabsq	$PyErr_Clear, %rax
	callq	*%rax
	movl	8(%r12), %esi
	movq	(%r12), %rdi
	cmpl	$0, 32(%r12)
	jle	.LBB1_25
	movslq	%esi, %rsi
	movabsq	$PyBytes_FromStringAndSize, %rax
	callq	*%rax
	movq	16(%r12), %rdi
	movq	%rax, %rbx
	callq	*24(%r12)
	testq	%rax, %rax
	je	.LBB1_30
	movabsq	$numba_runtime_build_excinfo_struct, %rcx
	movq	%rbx, %rdi
	movq	%rax, %rsi
	callq	*%rcx
	movabsq	$NRT_Free, %r14
	movq	%r12, %rdi
	movq	%rax, %rbx
	callq	*%r14
	jmp	.LBB1_26
.LBB1_17:
	movabsq	$PyExc_RuntimeError, %rdi
	movabsq	$".const.missing Environment: _ZN08NumbaEnv2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d", %rsi
	jmp	.LBB1_19
.LBB1_18:
	movabsq	$PyExc_TypeError, %rdi
	movabsq	$".const.can't unbox array from PyObject into native value.  The object maybe of a different type", %rsi
.LBB1_19:
	movabsq	$PyErr_SetString, %rax
	callq	*%rax
	xorl	%ebx, %ebx
	jmp	.LBB1_13
.LBB1_20:
	movabsq	$PyExc_TypeError, %rdi
	movabsq	$".const.can't unbox array from PyObject into native value.  The object maybe of a different type", %rsi
	movabsq	$PyErr_SetString, %rax
	callq	*%rax
	jmp	.LBB1_24
.LBB1_21:
	movq	$0, 8(%rsp)
	callq	*%rbp
	testq	%rax, %rax
	je	.LBB1_9
	jmp	.LBB1_23
.LBB1_22:
	movabsq	$PyExc_TypeError, %rdi
	movabsq	$".const.can't unbox a %S as a %S", %rsi
	movabsq	$PyErr_Format, %r8
	movq	%r14, %rdx
	movq	%r12, %rcx
	xorl	%eax, %eax
	callq	*%r8
	movabsq	$Py_DecRef, %rbx
	movq	%r12, %rdi
	callq	*%rbx
	movq	%r14, %rdi
	callq	*%rbx
	movq	(%rsp), %r14
.LBB1_23:
	movabsq	$NRT_decref, %rax
	movq	%r14, %rdi
	callq	*%rax
.LBB1_24:
	movabsq	$NRT_decref, %rax
	movq	%r13, %rdi
	jmp	.LBB1_28
.LBB1_25:
	movq	16(%r12), %rdx
	movabsq	$numba_unpickle, %rax
	callq	*%rax
	movq	%rax, %rbx
.LBB1_26:
	testq	%rbx, %rbx
	je	.LBB1_29
	movabsq	$numba_do_raise, %rax
	movq	%rbx, %rdi
.LBB1_28:
	callq	*%rax
.LBB1_29:
	xorl	%ebx, %ebx
	jmp	.LBB1_13
.LBB1_30:
	movabsq	$PyExc_RuntimeError, %rdi
	movabsq	$".const.Error creating Python tuple from runtime exception arguments", %rsi
	jmp	.LBB1_19
.Lfunc_end1:
	.size	_ZN7cpython2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d, .Lfunc_end1-_ZN7cpython2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d
	.cfi_endproc

	.globl	cfunc._ZN2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d
	.p2align	4
	.type	cfunc._ZN2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d,@function
cfunc._ZN2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d:
	.cfi_startproc
	pushq	%r15
	.cfi_def_cfa_offset 16
	pushq	%r14
	.cfi_def_cfa_offset 24
	pushq	%rbx
	.cfi_def_cfa_offset 32
	subq	$128, %rsp
	.cfi_def_cfa_offset 160
	.cfi_offset %rbx, -32
	.cfi_offset %r14, -24
	.cfi_offset %r15, -16
	vmovaps	160(%rsp), %xmm2
	vmovups	200(%rsp), %xmm3
	vmovaps	224(%rsp), %xmm4
	movq	%rcx, %rax
	movq	%rsi, %rcx
	movq	240(%rsp), %rsi
	movq	%rdx, %r10
	movq	%rdi, %rdx
	movabsq	$_ZN2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d, %r11
	leaq	120(%rsp), %rdi
	movq	$0, 120(%rsp)
	movq	$0, 112(%rsp)
	movq	%rsi, 96(%rsp)
	leaq	112(%rsp), %rsi
	vmovups	%xmm4, 80(%rsp)
	vmovups	%xmm3, 56(%rsp)
	vmovups	%xmm2, 16(%rsp)
	movq	%r9, 8(%rsp)
	movq	%r8, (%rsp)
	movq	%r10, %r8
	movq	%rax, %r9
	callq	*%r11
	movl	%eax, %ecx
	movq	112(%rsp), %rbx
	movq	120(%rsp), %rax
	movl	$0, 108(%rsp)
	testl	%ecx, %ecx
	jne	.LBB2_1
.LBB2_7:
	addq	$128, %rsp
	.cfi_def_cfa_offset 32
	popq	%rbx
	.cfi_def_cfa_offset 24
	popq	%r14
	.cfi_def_cfa_offset 16
	popq	%r15
	.cfi_def_cfa_offset 8
	retq
.LBB2_1:
	.cfi_def_cfa_offset 160
	movabsq	$numba_gil_ensure, %r14
	leaq	108(%rsp), %rdi
	movq	%rax, %r15
	callq	*%r14
	movabsq	$PyErr_Clear, %rax
	callq	*%rax
	movl	8(%rbx), %esi
	movq	(%rbx), %rdi
	cmpl	$0, 32(%rbx)
	jle	.LBB2_4
	movslq	%esi, %rsi
	movabsq	$PyBytes_FromStringAndSize, %rax
	callq	*%rax
	movq	16(%rbx), %rdi
	movq	%rax, %r14
	callq	*24(%rbx)
	testq	%rax, %rax
	je	.LBB2_3
	movabsq	$numba_runtime_build_excinfo_struct, %rcx
	movq	%r14, %rdi
	movq	%rax, %rsi
	callq	*%rcx
	movq	%rax, %r14
	movabsq	$NRT_Free, %rax
	movq	%rbx, %rdi
	callq	*%rax
	jmp	.LBB2_5
.LBB2_4:
	movq	16(%rbx), %rdx
	movabsq	$numba_unpickle, %rax
	callq	*%rax
	movq	%rax, %r14
.LBB2_5:
	testq	%r14, %r14
	je	.LBB2_6
	movabsq	$numba_do_raise, %rax
	movq	%r14, %rdi
	callq	*%rax
.LBB2_6:
	movabsq	$".const.<numba.core.cpu.CPUContext>", %rdi
	movabsq	$PyUnicode_FromString, %rax
	callq	*%rax
	movabsq	$PyErr_WriteUnraisable, %r14
	movq	%rax, %rbx
	movq	%rbx, %rdi
	callq	*%r14
	movabsq	$Py_DecRef, %rax
	movq	%rbx, %rdi
	callq	*%rax
	movabsq	$numba_gil_release, %rax
	leaq	108(%rsp), %rdi
	callq	*%rax
	movq	%r15, %rax
	jmp	.LBB2_7
.LBB2_3:
	movabsq	$PyExc_RuntimeError, %rdi
	movabsq	$".const.Error creating Python tuple from runtime exception arguments.1", %rsi
	movabsq	$PyErr_SetString, %rax
	callq	*%rax
	xorl	%eax, %eax
	jmp	.LBB2_7
.Lfunc_end2:
	.size	cfunc._ZN2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d, .Lfunc_end2-cfunc._ZN2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d
	.cfi_endproc

	.weak	NRT_incref
	.p2align	4
	.type	NRT_incref,@function
NRT_incref:
	testq	%rdi, %rdi
	je	.LBB3_2
	lock		incq	(%rdi)
.LBB3_2:
	retq
.Lfunc_end3:
	.size	NRT_incref, .Lfunc_end3-NRT_incref

	.weak	_ZN5numba5typed10listobject12impl_getitem12_3clocals_3e21integer_non_none_implB3v17B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx
	.p2align	4
	.type	_ZN5numba5typed10listobject12impl_getitem12_3clocals_3e21integer_non_none_implB3v17B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx,@function
_ZN5numba5typed10listobject12impl_getitem12_3clocals_3e21integer_non_none_implB3v17B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	pushq	%r15
	.cfi_def_cfa_offset 24
	pushq	%r14
	.cfi_def_cfa_offset 32
	pushq	%r13
	.cfi_def_cfa_offset 40
	pushq	%r12
	.cfi_def_cfa_offset 48
	pushq	%rbx
	.cfi_def_cfa_offset 56
	subq	$56, %rsp
	.cfi_def_cfa_offset 112
	.cfi_offset %rbx, -56
	.cfi_offset %r12, -48
	.cfi_offset %r13, -40
	.cfi_offset %r14, -32
	.cfi_offset %r15, -24
	.cfi_offset %rbp, -16
	movabsq	$NRT_incref, %r13
	movq	%rdi, %r14
	movq	%rdx, %rdi
	movq	%r8, %r15
	movq	%rcx, %r12
	movq	%rdx, %rbx
	movq	%rsi, 16(%rsp)
	callq	*%r13
	movq	%rbx, %rdi
	callq	*%r13
	movabsq	$numba_list_size_address, %rax
	movq	%r12, %rdi
	callq	*%rax
	movq	(%rax), %rbp
	movq	%r15, %r13
	sarq	$63, %r13
	andq	%rbp, %r13
	addq	%r15, %r13
	movabsq	$NRT_decref, %r15
	js	.LBB4_3
	movq	%rbx, %rdi
	callq	*%r15
	cmpq	%rbp, %r13
	jge	.LBB4_2
	movabsq	$numba_list_base_ptr, %rax
	movq	%r12, %rdi
	callq	*%rax
	imulq	$56, %r13, %rcx
	movq	%r15, %r12
	vmovups	8(%rax,%rcx), %ymm0
	vmovups	40(%rax,%rcx), %xmm1
	movq	(%rax,%rcx), %r15
	movabsq	$NRT_incref, %rax
	movq	%r15, %rdi
	vmovups	%ymm0, 16(%rsp)
	vmovaps	%xmm1, (%rsp)
	vzeroupper
	callq	*%rax
	vmovups	16(%rsp), %ymm0
	vmovaps	(%rsp), %xmm1
	movq	%r15, (%r14)
	movq	%rbx, %rdi
	vmovups	%ymm0, 8(%r14)
	vmovups	%xmm1, 40(%r14)
	vzeroupper
	callq	*%r12
	xorl	%eax, %eax
	jmp	.LBB4_5
.LBB4_2:
	xorl	%ebx, %ebx
.LBB4_3:
	movq	%rbx, %rdi
	callq	*%r15
	movq	16(%rsp), %rcx
	movabsq	$.const.picklebuf.24b61a3de82e426d4dab231712814fb3d60a9910, %rax
	movq	%rax, (%rcx)
	movl	$1, %eax
.LBB4_5:
	addq	$56, %rsp
	.cfi_def_cfa_offset 56
	popq	%rbx
	.cfi_def_cfa_offset 48
	popq	%r12
	.cfi_def_cfa_offset 40
	popq	%r13
	.cfi_def_cfa_offset 32
	popq	%r14
	.cfi_def_cfa_offset 24
	popq	%r15
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	retq
.Lfunc_end4:
	.size	_ZN5numba5typed10listobject12impl_getitem12_3clocals_3e21integer_non_none_implB3v17B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx, .Lfunc_end4-_ZN5numba5typed10listobject12impl_getitem12_3clocals_3e21integer_non_none_implB3v17B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx
	.cfi_endproc

	.weak	NRT_decref
	.p2align	4
	.type	NRT_decref,@function
NRT_decref:
	.cfi_startproc
	testq	%rdi, %rdi
	je	.LBB5_2
	#MEMBARRIER
	lock		decq	(%rdi)
	je	.LBB5_3
.LBB5_2:
	retq
.LBB5_3:
	movabsq	$NRT_MemInfo_call_dtor, %rax
	#MEMBARRIER
	jmpq	*%rax
.Lfunc_end5:
	.size	NRT_decref, .Lfunc_end5-NRT_decref
	.cfi_endproc

	.weak	_ZN7adtrans7targets11cpu_runtime5_growB3v25B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx
	.p2align	4
	.type	_ZN7adtrans7targets11cpu_runtime5_growB3v25B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx,@function
_ZN7adtrans7targets11cpu_runtime5_growB3v25B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx:
	.cfi_startproc
	pushq	%r15
	.cfi_def_cfa_offset 16
	pushq	%r14
	.cfi_def_cfa_offset 24
	pushq	%r13
	.cfi_def_cfa_offset 32
	pushq	%r12
	.cfi_def_cfa_offset 40
	pushq	%rbx
	.cfi_def_cfa_offset 48
	.cfi_offset %rbx, -48
	.cfi_offset %r12, -40
	.cfi_offset %r13, -32
	.cfi_offset %r14, -24
	.cfi_offset %r15, -16
	movq	56(%rsp), %r12
	movq	72(%rsp), %r13
	movabsq	$NRT_incref, %rax
	movq	%rdi, %r14
	movq	%rdx, %rdi
	movq	%rdx, %rbx
	movq	%rsi, %r15
	callq	*%rax
	leaq	(%r12,%r12), %rax
	movabsq	$1152921504606846975, %rcx
	cmpq	%rax, %r13
	cmovgq	%r13, %rax
	movl	$16, %r13d
	cmpq	$17, %rax
	cmovgeq	%rax, %r13
	cmpq	%rcx, %rax
	jg	.LBB6_1
	leaq	(,%r13,8), %rdi
	movabsq	$NRT_MemInfo_alloc_aligned, %rax
	movl	$32, %esi
	callq	*%rax
	testq	%rax, %rax
	je	.LBB6_3
	movq	24(%rax), %rcx
	testq	%r12, %r12
	jle	.LBB6_22
	movq	48(%rsp), %rdx
	xorl	%esi, %esi
	cmpq	$4, %r12
	jb	.LBB6_17
	movq	%rcx, %rdi
	subq	%rdx, %rdi
	cmpq	$128, %rdi
	jb	.LBB6_17
	movabsq	$9223372036854775792, %rdi
	cmpq	$16, %r12
	jae	.LBB6_10
	xorl	%esi, %esi
	jmp	.LBB6_14
.LBB6_10:
	movq	%r12, %rsi
	andq	%rdi, %rsi
	xorl	%r8d, %r8d
	.p2align	4
.LBB6_11:
	vmovups	(%rdx,%r8,8), %ymm0
	vmovups	32(%rdx,%r8,8), %ymm1
	vmovups	64(%rdx,%r8,8), %ymm2
	vmovups	96(%rdx,%r8,8), %ymm3
	vmovups	%ymm0, (%rcx,%r8,8)
	vmovups	%ymm1, 32(%rcx,%r8,8)
	vmovups	%ymm2, 64(%rcx,%r8,8)
	vmovups	%ymm3, 96(%rcx,%r8,8)
	addq	$16, %r8
	cmpq	%r8, %rsi
	jne	.LBB6_11
	cmpq	%rsi, %r12
	je	.LBB6_22
	testb	$12, %r12b
	je	.LBB6_17
.LBB6_14:
	addq	$12, %rdi
	movq	%rsi, %r8
	movq	%rdi, %rsi
	andq	%r12, %rsi
	.p2align	4
.LBB6_15:
	vmovups	(%rdx,%r8,8), %ymm0
	vmovups	%ymm0, (%rcx,%r8,8)
	addq	$4, %r8
	cmpq	%r8, %rsi
	jne	.LBB6_15
	cmpq	%rsi, %r12
	je	.LBB6_22
.LBB6_17:
	movl	%r12d, %r8d
	subl	%esi, %r8d
	movq	%rsi, %rdi
	andl	$7, %r8d
	je	.LBB6_20
	movq	%rsi, %rdi
	.p2align	4
.LBB6_19:
	vmovsd	(%rdx,%rdi,8), %xmm0
	decq	%r8
	vmovsd	%xmm0, (%rcx,%rdi,8)
	leaq	1(%rdi), %rdi
	jne	.LBB6_19
.LBB6_20:
	subq	%r12, %rsi
	cmpq	$-8, %rsi
	ja	.LBB6_22
	.p2align	4
.LBB6_21:
	vmovsd	(%rdx,%rdi,8), %xmm0
	vmovsd	%xmm0, (%rcx,%rdi,8)
	vmovsd	8(%rdx,%rdi,8), %xmm0
	vmovsd	%xmm0, 8(%rcx,%rdi,8)
	vmovsd	16(%rdx,%rdi,8), %xmm0
	vmovsd	%xmm0, 16(%rcx,%rdi,8)
	vmovsd	24(%rdx,%rdi,8), %xmm0
	vmovsd	%xmm0, 24(%rcx,%rdi,8)
	vmovsd	32(%rdx,%rdi,8), %xmm0
	vmovsd	%xmm0, 32(%rcx,%rdi,8)
	vmovsd	40(%rdx,%rdi,8), %xmm0
	vmovsd	%xmm0, 40(%rcx,%rdi,8)
	vmovsd	48(%rdx,%rdi,8), %xmm0
	vmovsd	%xmm0, 48(%rcx,%rdi,8)
	vmovsd	56(%rdx,%rdi,8), %xmm0
	vmovsd	%xmm0, 56(%rcx,%rdi,8)
	addq	$8, %rdi
	cmpq	%rdi, %r12
	jne	.LBB6_21
.LBB6_22:
	movq	%rax, (%r14)
	movabsq	$NRT_decref, %rax
	movq	$0, 8(%r14)
	movq	%r13, 16(%r14)
	movq	$8, 24(%r14)
	movq	%rcx, 32(%r14)
	movq	%r13, 40(%r14)
	movq	%rbx, %rdi
	movq	$8, 48(%r14)
	vzeroupper
	callq	*%rax
	xorl	%eax, %eax
.LBB6_23:
	popq	%rbx
	.cfi_def_cfa_offset 40
	popq	%r12
	.cfi_def_cfa_offset 32
	popq	%r13
	.cfi_def_cfa_offset 24
	popq	%r14
	.cfi_def_cfa_offset 16
	popq	%r15
	.cfi_def_cfa_offset 8
	retq
.LBB6_1:
	.cfi_def_cfa_offset 48
	movabsq	$.const.picklebuf.58e14eccb507b1e0206981740223e685cb8c3c57.24, %rax
	jmp	.LBB6_4
.LBB6_3:
	movabsq	$.const.picklebuf.ba289d81f05c7020f3477c15734804df65abe209.23, %rax
.LBB6_4:
	movq	%rax, (%r15)
	movl	$1, %eax
	jmp	.LBB6_23
.Lfunc_end6:
	.size	_ZN7adtrans7targets11cpu_runtime5_growB3v25B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx, .Lfunc_end6-_ZN7adtrans7targets11cpu_runtime5_growB3v25B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx
	.cfi_endproc

	.weak	_ZN7adtrans7targets11cpu_runtime15tape_push_arrayB3v35B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE
	.p2align	4
	.type	_ZN7adtrans7targets11cpu_runtime15tape_push_arrayB3v35B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE,@function
_ZN7adtrans7targets11cpu_runtime15tape_push_arrayB3v35B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	pushq	%r15
	.cfi_def_cfa_offset 24
	pushq	%r14
	.cfi_def_cfa_offset 32
	pushq	%r13
	.cfi_def_cfa_offset 40
	pushq	%r12
	.cfi_def_cfa_offset 48
	pushq	%rbx
	.cfi_def_cfa_offset 56
	subq	$232, %rsp
	.cfi_def_cfa_offset 288
	.cfi_offset %rbx, -56
	.cfi_offset %r12, -48
	.cfi_offset %r13, -40
	.cfi_offset %r14, -32
	.cfi_offset %r15, -24
	.cfi_offset %rbp, -16
	movq	320(%rsp), %r14
	movq	336(%rsp), %r13
	movabsq	$NRT_incref, %rbx
	movq	%rdi, 96(%rsp)
	movq	%rdx, %rdi
	movq	%r9, 56(%rsp)
	movq	%r8, 24(%rsp)
	movq	%rcx, 16(%rsp)
	movq	%rdx, %rbp
	movq	%rsi, 8(%rsp)
	movq	$0, 64(%rsp)
	callq	*%rbx
	movq	%rbp, %rdi
	callq	*%rbx
	movq	%r14, %rdi
	callq	*%rbx
	movq	%r14, %rdi
	callq	*%rbx
	movq	%r14, %rdi
	leaq	216(%rsp), %r15
	leaq	224(%rsp), %r12
	movq	$0, 104(%rsp)
	callq	*%rbx
	vmovaps	352(%rsp), %xmm0
	movq	328(%rsp), %rax
	movq	344(%rsp), %r10
	movq	368(%rsp), %rcx
	movq	%r14, 176(%rsp)
	movq	%r13, 72(%rsp)
	leaq	72(%rsp), %r8
	leaq	104(%rsp), %r9
	movl	$1, %edi
	movq	%r15, %rsi
	movq	%r12, %rdx
	movq	%rax, 184(%rsp)
	movq	%r13, 192(%rsp)
	movq	%r10, 200(%rsp)
	movabsq	$numba_attempt_nocopy_reshape, %rax
	vmovups	%xmm0, 208(%rsp)
	movq	%rcx, 224(%rsp)
	movl	$1, %ecx
	pushq	$0
	.cfi_adjust_cfa_offset 8
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	callq	*%rax
	addq	$16, %rsp
	.cfi_adjust_cfa_offset -16
	testl	%eax, %eax
	je	.LBB7_3
	movq	176(%rsp), %rdi
	movq	312(%rsp), %r15
	movq	208(%rsp), %r12
	movq	72(%rsp), %r13
	movq	%rdi, 88(%rsp)
	callq	*%rbx
	movabsq	$NRT_decref, %rbx
	movq	%r14, %rdi
	callq	*%rbx
	movq	%r14, %rdi
	callq	*%rbx
	movq	%r14, %rdi
	movq	%rbx, %r14
	callq	*%rbx
	movq	296(%rsp), %r10
	leaq	(%r13,%r15), %rbx
	movq	%rbx, 80(%rsp)
	cmpq	%r10, %rbx
	jle	.LBB7_2
	movq	16(%rsp), %rcx
	movq	24(%rsp), %r8
	movq	56(%rsp), %r9
	vxorps	%xmm0, %xmm0, %xmm0
	vmovups	%ymm0, 136(%rsp)
	vmovups	%ymm0, 112(%rsp)
	movabsq	$_ZN7adtrans7targets11cpu_runtime5_growB3v25B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx, %rax
	leaq	112(%rsp), %rdi
	leaq	64(%rsp), %rsi
	movq	%rbp, %rdx
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	pushq	312(%rsp)
	.cfi_adjust_cfa_offset 8
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	pushq	312(%rsp)
	.cfi_adjust_cfa_offset 8
	vzeroupper
	callq	*%rax
	addq	$32, %rsp
	.cfi_adjust_cfa_offset -32
	testl	%eax, %eax
	jne	.LBB7_5
	movq	120(%rsp), %rcx
	movq	128(%rsp), %rdx
	movq	112(%rsp), %rax
	movq	136(%rsp), %rbx
	movq	%rbp, %rdi
	movq	%rcx, 16(%rsp)
	movq	144(%rsp), %rcx
	movq	%rdx, 24(%rsp)
	movq	152(%rsp), %rdx
	movq	%rax, 32(%rsp)
	movq	%rcx, 48(%rsp)
	movq	160(%rsp), %rcx
	movq	%rdx, 40(%rsp)
	movq	%rcx, 8(%rsp)
	callq	*%r14
	movq	%rbp, %rdi
	callq	*%r14
	xorl	%ebp, %ebp
	jmp	.LBB7_8
.LBB7_3:
	movabsq	$NRT_decref, %rax
	movq	%r14, %rdi
	callq	*%rax
	movabsq	$.const.picklebuf.dc3bba832c4c3758273d0db24b835691af3f316c, %rax
.LBB7_6:
	movq	8(%rsp), %rcx
	movq	%rax, (%rcx)
	movl	$1, %eax
	jmp	.LBB7_23
.LBB7_2:
	movq	304(%rsp), %rax
	movq	288(%rsp), %rcx
	movq	56(%rsp), %rbx
	movq	%r10, 40(%rsp)
	movq	%rbp, 32(%rsp)
	movq	%rax, 8(%rsp)
	movq	%rcx, 48(%rsp)
.LBB7_8:
	movq	%rbp, %rdi
	callq	*%r14
	movq	%r14, %r11
	movq	48(%rsp), %r14
	movq	40(%rsp), %rbp
	movq	8(%rsp), %r9
	testq	%r13, %r13
	jle	.LBB7_22
	cmpq	$40, %r13
	jae	.LBB7_11
	xorl	%eax, %eax
.LBB7_16:
	movl	%r13d, %edx
	subl	%eax, %edx
	movq	%rax, %rcx
	andl	$7, %edx
	je	.LBB7_19
	leaq	(%r14,%r15,8), %rsi
	leaq	(,%rbp,8), %rdi
	movq	%rax, %rcx
	.p2align	4
.LBB7_18:
	vmovsd	(%r12,%rcx,8), %xmm0
	leaq	(%r15,%rcx), %r8
	sarq	$63, %r8
	andq	%rdi, %r8
	addq	%rsi, %r8
	decq	%rdx
	vmovsd	%xmm0, (%r8,%rcx,8)
	leaq	1(%rcx), %rcx
	jne	.LBB7_18
.LBB7_19:
	subq	%r13, %rax
	cmpq	$-8, %rax
	ja	.LBB7_22
	leaq	(%r14,%r15,8), %rdx
	movq	%rbp, %rax
	shlq	$3, %rax
	.p2align	4
.LBB7_21:
	vmovsd	(%r12,%rcx,8), %xmm0
	leaq	(%r15,%rcx), %rsi
	sarq	$63, %rsi
	andq	%rax, %rsi
	addq	%rdx, %rsi
	vmovsd	%xmm0, (%rsi,%rcx,8)
	leaq	1(%r15,%rcx), %rsi
	vmovsd	8(%r12,%rcx,8), %xmm0
	sarq	$63, %rsi
	andq	%rax, %rsi
	addq	%rdx, %rsi
	vmovsd	%xmm0, 8(%rsi,%rcx,8)
	leaq	2(%r15,%rcx), %rsi
	vmovsd	16(%r12,%rcx,8), %xmm0
	sarq	$63, %rsi
	andq	%rax, %rsi
	addq	%rdx, %rsi
	vmovsd	%xmm0, 16(%rsi,%rcx,8)
	leaq	3(%r15,%rcx), %rsi
	vmovsd	24(%r12,%rcx,8), %xmm0
	sarq	$63, %rsi
	andq	%rax, %rsi
	addq	%rdx, %rsi
	vmovsd	%xmm0, 24(%rsi,%rcx,8)
	leaq	4(%r15,%rcx), %rsi
	vmovsd	32(%r12,%rcx,8), %xmm0
	sarq	$63, %rsi
	andq	%rax, %rsi
	addq	%rdx, %rsi
	vmovsd	%xmm0, 32(%rsi,%rcx,8)
	leaq	5(%r15,%rcx), %rsi
	vmovsd	40(%r12,%rcx,8), %xmm0
	sarq	$63, %rsi
	andq	%rax, %rsi
	addq	%rdx, %rsi
	vmovsd	%xmm0, 40(%rsi,%rcx,8)
	leaq	6(%r15,%rcx), %rsi
	vmovsd	48(%r12,%rcx,8), %xmm0
	sarq	$63, %rsi
	andq	%rax, %rsi
	addq	%rdx, %rsi
	vmovsd	%xmm0, 48(%rsi,%rcx,8)
	leaq	7(%r15,%rcx), %rsi
	vmovsd	56(%r12,%rcx,8), %xmm0
	sarq	$63, %rsi
	andq	%rax, %rsi
	addq	%rdx, %rsi
	vmovsd	%xmm0, 56(%rsi,%rcx,8)
	addq	$8, %rcx
	cmpq	%rcx, %r13
	jne	.LBB7_21
	jmp	.LBB7_22
.LBB7_11:
	leaq	(%r14,%r15,8), %rcx
	xorl	%eax, %eax
	subq	%r12, %rcx
	cmpq	$32, %rcx
	jb	.LBB7_16
	leaq	(%rcx,%rbp,8), %rcx
	cmpq	$32, %rcx
	jb	.LBB7_16
	leaq	(,%r15,8), %rdx
	movabsq	$9223372036854775804, %rax
	leaq	(,%rbp,8), %rcx
	xorl	%esi, %esi
	andq	%r13, %rax
	addq	%r14, %rdx
	.p2align	4
.LBB7_14:
	vmovsd	(%r12,%rsi,8), %xmm0
	vmovsd	8(%r12,%rsi,8), %xmm1
	vmovsd	16(%r12,%rsi,8), %xmm2
	vmovsd	24(%r12,%rsi,8), %xmm3
	leaq	1(%r15,%rsi), %r8
	leaq	2(%r15,%rsi), %r9
	leaq	3(%r15,%rsi), %r10
	leaq	(%r15,%rsi), %rdi
	sarq	$63, %rdi
	sarq	$63, %r8
	sarq	$63, %r9
	sarq	$63, %r10
	andq	%rcx, %rdi
	andq	%rcx, %r8
	andq	%rcx, %r9
	andq	%rcx, %r10
	addq	%rdx, %rdi
	addq	%rdx, %r8
	addq	%rdx, %r9
	addq	%rdx, %r10
	vmovsd	%xmm0, (%rdi,%rsi,8)
	vmovsd	%xmm1, 8(%r8,%rsi,8)
	vmovsd	%xmm2, 16(%r9,%rsi,8)
	vmovsd	%xmm3, 24(%r10,%rsi,8)
	addq	$4, %rsi
	cmpq	%rsi, %rax
	jne	.LBB7_14
	movq	8(%rsp), %r9
	cmpq	%rax, %r13
	jne	.LBB7_16
.LBB7_22:
	movq	96(%rsp), %rax
	movq	32(%rsp), %rcx
	movq	16(%rsp), %rdx
	movq	88(%rsp), %rdi
	movq	24(%rsp), %rsi
	movq	%rcx, (%rax)
	movq	%rdx, 8(%rax)
	movq	80(%rsp), %rdx
	movq	%rsi, 16(%rax)
	movq	%rbx, 24(%rax)
	movq	%r14, 32(%rax)
	movq	%rbp, 40(%rax)
	movq	%r9, 48(%rax)
	movq	%rdx, 56(%rax)
	callq	*%r11
	xorl	%eax, %eax
.LBB7_23:
	addq	$232, %rsp
	.cfi_def_cfa_offset 56
	popq	%rbx
	.cfi_def_cfa_offset 48
	popq	%r12
	.cfi_def_cfa_offset 40
	popq	%r13
	.cfi_def_cfa_offset 32
	popq	%r14
	.cfi_def_cfa_offset 24
	popq	%r15
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	retq
.LBB7_5:
	.cfi_def_cfa_offset 288
	movq	64(%rsp), %rax
	jmp	.LBB7_6
.Lfunc_end7:
	.size	_ZN7adtrans7targets11cpu_runtime15tape_push_arrayB3v35B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE, .Lfunc_end7-_ZN7adtrans7targets11cpu_runtime15tape_push_arrayB3v35B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE
	.cfi_endproc

	.weak	_ZN7adtrans7targets11cpu_runtime9tape_viewB3v32B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE
	.p2align	4
	.type	_ZN7adtrans7targets11cpu_runtime9tape_viewB3v32B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE,@function
_ZN7adtrans7targets11cpu_runtime9tape_viewB3v32B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	pushq	%r15
	.cfi_def_cfa_offset 24
	pushq	%r14
	.cfi_def_cfa_offset 32
	pushq	%r13
	.cfi_def_cfa_offset 40
	pushq	%r12
	.cfi_def_cfa_offset 48
	pushq	%rbx
	.cfi_def_cfa_offset 56
	subq	$88, %rsp
	.cfi_def_cfa_offset 144
	.cfi_offset %rbx, -56
	.cfi_offset %r12, -48
	.cfi_offset %r13, -40
	.cfi_offset %r14, -32
	.cfi_offset %r15, -24
	.cfi_offset %rbp, -16
	movq	152(%rsp), %rbp
	movq	168(%rsp), %r15
	movabsq	$NRT_incref, %rax
	movq	%rdi, %r14
	movq	%rdx, %rdi
	movq	%r9, %r12
	movq	%rcx, %r13
	movq	%rdx, %rbx
	movq	%rsi, 16(%rsp)
	movq	$0, 8(%rsp)
	callq	*%rax
	movq	%r15, %rcx
	sarq	$63, %rcx
	andq	%rbp, %rcx
	addq	%r15, %rcx
	movq	%rcx, %rax
	js	.LBB8_1
	addq	192(%rsp), %r15
	cmpq	%rbp, %rcx
	jge	.LBB8_3
.LBB8_4:
	movq	%r15, %rdi
	sarq	$63, %rdi
	andq	%rbp, %rdi
	addq	%r15, %rdi
	movq	%rdi, %rcx
	js	.LBB8_5
.LBB8_6:
	movq	216(%rsp), %rdx
	movq	160(%rsp), %rsi
	movq	144(%rsp), %r8
	cmpq	%rbp, %rdi
	jge	.LBB8_11
.LBB8_7:
	subq	%rax, %rcx
	leaq	(%r8,%rax,8), %rax
	movq	%rbx, 32(%rsp)
	movq	%r13, 40(%rsp)
	movq	%rdx, (%rsp)
	movq	%rcx, %rdi
	sarq	$63, %rdi
	andnq	%rcx, %rdi, %rdi
	movq	%rdi, 48(%rsp)
	movq	%r12, 56(%rsp)
	movq	%rax, 64(%rsp)
	movq	%rdi, 72(%rsp)
	movq	%rsi, 80(%rsp)
	testq	%rdx, %rdx
	js	.LBB8_12
	vcvtsi2sd	%rdi, %xmm15, %xmm0
	vcvtsi2sd	%rdx, %xmm15, %xmm1
	vucomisd	%xmm1, %xmm0
	jne	.LBB8_9
	jnp	.LBB8_13
.LBB8_9:
	movabsq	$.const.picklebuf.927d4da63c1ea9b4617659aac5d190484416c0ea, %rax
	jmp	.LBB8_10
.LBB8_12:
	movabsq	$4294967296, %rax
	cmpq	%rax, %rcx
	movl	%edi, %eax
	cmovgeq	%rdi, %rax
	movq	%rax, (%rsp)
.LBB8_13:
	leaq	72(%rsp), %rsi
	leaq	80(%rsp), %rdx
	movabsq	$numba_attempt_nocopy_reshape, %rax
	movq	%rsp, %r8
	leaq	8(%rsp), %r9
	movl	$1, %edi
	movl	$1, %ecx
	pushq	$0
	.cfi_adjust_cfa_offset 8
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	callq	*%rax
	addq	$16, %rsp
	.cfi_adjust_cfa_offset -16
	testl	%eax, %eax
	je	.LBB8_14
	vmovups	56(%rsp), %xmm0
	movq	32(%rsp), %r15
	movq	(%rsp), %r12
	movq	8(%rsp), %r13
	movq	40(%rsp), %rbp
	movabsq	$NRT_incref, %rax
	movq	%r15, %rdi
	vmovaps	%xmm0, 16(%rsp)
	callq	*%rax
	vmovapd	16(%rsp), %xmm0
	movabsq	$NRT_decref, %rax
	movq	%r15, (%r14)
	movq	%rbp, 8(%r14)
	movq	%r12, 16(%r14)
	movq	%rbx, %rdi
	vmovupd	%xmm0, 24(%r14)
	movq	%r12, 40(%r14)
	movq	%r13, 48(%r14)
	callq	*%rax
	xorl	%eax, %eax
	jmp	.LBB8_16
.LBB8_14:
	movabsq	$.const.picklebuf.dc3bba832c4c3758273d0db24b835691af3f316c.35, %rax
.LBB8_10:
	movq	16(%rsp), %rcx
	movq	%rax, (%rcx)
	movl	$1, %eax
.LBB8_16:
	addq	$88, %rsp
	.cfi_def_cfa_offset 56
	popq	%rbx
	.cfi_def_cfa_offset 48
	popq	%r12
	.cfi_def_cfa_offset 40
	popq	%r13
	.cfi_def_cfa_offset 32
	popq	%r14
	.cfi_def_cfa_offset 24
	popq	%r15
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	retq
.LBB8_1:
	.cfi_def_cfa_offset 144
	xorl	%eax, %eax
	addq	192(%rsp), %r15
	cmpq	%rbp, %rcx
	jl	.LBB8_4
.LBB8_3:
	movq	%rbp, %rax
	jmp	.LBB8_4
.LBB8_5:
	xorl	%ecx, %ecx
	jmp	.LBB8_6
.LBB8_11:
	movq	%rbp, %rcx
	jmp	.LBB8_7
.Lfunc_end8:
	.size	_ZN7adtrans7targets11cpu_runtime9tape_viewB3v32B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE, .Lfunc_end8-_ZN7adtrans7targets11cpu_runtime9tape_viewB3v32B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE
	.cfi_endproc

	.weak	_ZN5numba5typed10listobject12impl_setitem12_3clocals_3e12impl_integerB3v34B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx5ArrayIdLi1E1C7mutable7alignedE
	.p2align	4
	.type	_ZN5numba5typed10listobject12impl_setitem12_3clocals_3e12impl_integerB3v34B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx5ArrayIdLi1E1C7mutable7alignedE,@function
_ZN5numba5typed10listobject12impl_setitem12_3clocals_3e12impl_integerB3v34B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx5ArrayIdLi1E1C7mutable7alignedE:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	pushq	%r15
	.cfi_def_cfa_offset 24
	pushq	%r14
	.cfi_def_cfa_offset 32
	pushq	%r13
	.cfi_def_cfa_offset 40
	pushq	%r12
	.cfi_def_cfa_offset 48
	pushq	%rbx
	.cfi_def_cfa_offset 56
	subq	$72, %rsp
	.cfi_def_cfa_offset 128
	.cfi_offset %rbx, -56
	.cfi_offset %r12, -48
	.cfi_offset %r13, -40
	.cfi_offset %r14, -32
	.cfi_offset %r15, -24
	.cfi_offset %rbp, -16
	movabsq	$NRT_incref, %rbx
	movq	%rdi, 8(%rsp)
	movq	%rdx, %rdi
	movq	%r9, %r12
	movq	%r8, %r14
	movq	%rcx, %r13
	movq	%rdx, %r15
	movq	%rsi, (%rsp)
	callq	*%rbx
	movq	%r12, %rdi
	callq	*%rbx
	movq	%r15, %rdi
	callq	*%rbx
	movabsq	$numba_list_size_address, %rax
	movq	%r13, %rdi
	callq	*%rax
	movq	(%rax), %rbx
	movq	%r14, %rbp
	sarq	$63, %rbp
	andq	%rbx, %rbp
	addq	%r14, %rbp
	movabsq	$NRT_decref, %r14
	js	.LBB9_3
	movq	%r15, %rdi
	callq	*%r14
	cmpq	%rbx, %rbp
	jge	.LBB9_2
	movq	168(%rsp), %rax
	movq	160(%rsp), %rcx
	movq	152(%rsp), %rdx
	movq	144(%rsp), %rsi
	movq	136(%rsp), %rdi
	movq	128(%rsp), %r8
	movq	%r12, 16(%rsp)
	movq	%r8, 24(%rsp)
	movq	%rdi, 32(%rsp)
	movq	%rsi, 40(%rsp)
	movq	%rdx, 48(%rsp)
	movq	%rcx, 56(%rsp)
	movq	%rax, 64(%rsp)
	movabsq	$numba_list_setitem, %rax
	leaq	16(%rsp), %rdx
	movq	%r13, %rdi
	movq	%rbp, %rsi
	callq	*%rax
	movq	%r15, %rdi
	movl	%eax, %ebp
	callq	*%r14
	movq	%r12, %rdi
	callq	*%r14
	cmpl	$-5, %ebp
	je	.LBB9_6
	testl	%ebp, %ebp
	jne	.LBB9_10
	movq	8(%rsp), %rax
	movq	$0, (%rax)
	xorl	%eax, %eax
	jmp	.LBB9_5
.LBB9_2:
	xorl	%r15d, %r15d
.LBB9_3:
	movq	%r15, %rdi
	callq	*%r14
	movabsq	$.const.picklebuf.24b61a3de82e426d4dab231712814fb3d60a9910.40, %rax
.LBB9_7:
	movq	(%rsp), %rcx
	movq	%rax, (%rcx)
	movl	$1, %eax
.LBB9_5:
	addq	$72, %rsp
	.cfi_def_cfa_offset 56
	popq	%rbx
	.cfi_def_cfa_offset 48
	popq	%r12
	.cfi_def_cfa_offset 40
	popq	%r13
	.cfi_def_cfa_offset 32
	popq	%r14
	.cfi_def_cfa_offset 24
	popq	%r15
	.cfi_def_cfa_offset 16
	popq	%rbp
	.cfi_def_cfa_offset 8
	retq
.LBB9_6:
	.cfi_def_cfa_offset 128
	movabsq	$.const.picklebuf.d093d127640c6bcc6275f7ae3b53ccbac2650a48, %rax
	jmp	.LBB9_7
.LBB9_10:
	movabsq	$.const.picklebuf.33b886e8419a5b510fb28d56b115d6f0c8b69a74, %rax
	jmp	.LBB9_7
.Lfunc_end9:
	.size	_ZN5numba5typed10listobject12impl_setitem12_3clocals_3e12impl_integerB3v34B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx5ArrayIdLi1E1C7mutable7alignedE, .Lfunc_end9-_ZN5numba5typed10listobject12impl_setitem12_3clocals_3e12impl_integerB3v34B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx5ArrayIdLi1E1C7mutable7alignedE
	.cfi_endproc

	.type	.const.heat_time_loop_adjoint,@object
	.section	.lrodata,"al",@progbits
	.p2align	4, 0x0
.const.heat_time_loop_adjoint:
	.asciz	"heat_time_loop_adjoint"
	.size	.const.heat_time_loop_adjoint, 23

	.type	_ZN08NumbaEnv2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d,@object
	.comm	_ZN08NumbaEnv2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d,8,8
	.type	".const.missing Environment: _ZN08NumbaEnv2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d",@object
	.p2align	4, 0x0
".const.missing Environment: _ZN08NumbaEnv2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d":
	.asciz	"missing Environment: _ZN08NumbaEnv2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d"
	.size	".const.missing Environment: _ZN08NumbaEnv2v022heat_time_loop_adjointB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedEdxd47ListType_5barray_28float64_2c_201d_2c_20C_29_5d", 222

	.type	".const.can't unbox array from PyObject into native value.  The object maybe of a different type",@object
	.p2align	4, 0x0
".const.can't unbox array from PyObject into native value.  The object maybe of a different type":
	.asciz	"can't unbox array from PyObject into native value.  The object maybe of a different type"
	.size	".const.can't unbox array from PyObject into native value.  The object maybe of a different type", 89

	.type	.const.pickledata.115b48f334cf14371ab26ff563640f094b27e783,@object
	.p2align	4, 0x0
.const.pickledata.115b48f334cf14371ab26ff563640f094b27e783:
	.ascii	"\200\004\225\"\000\000\000\000\000\000\000\214\025numba.typed.typedlist\224\214\004List\224\223\224."
	.size	.const.pickledata.115b48f334cf14371ab26ff563640f094b27e783, 45

	.type	.const.pickledata.115b48f334cf14371ab26ff563640f094b27e783.sha1,@object
	.p2align	4, 0x0
.const.pickledata.115b48f334cf14371ab26ff563640f094b27e783.sha1:
	.ascii	"\021[H\3634\317\0247\032\262o\365cd\017\tK'\347\203"
	.size	.const.pickledata.115b48f334cf14371ab26ff563640f094b27e783.sha1, 20

	.type	.const._opaque,@object
.const._opaque:
	.asciz	"_opaque"
	.size	.const._opaque, 8

	.type	".const.can't unbox a %S as a %S",@object
	.p2align	4, 0x0
".const.can't unbox a %S as a %S":
	.asciz	"can't unbox a %S as a %S"
	.size	".const.can't unbox a %S as a %S", 25

	.type	".const.Error creating Python tuple from runtime exception arguments",@object
	.p2align	4, 0x0
".const.Error creating Python tuple from runtime exception arguments":
	.asciz	"Error creating Python tuple from runtime exception arguments"
	.size	".const.Error creating Python tuple from runtime exception arguments", 61

	.type	".const.Error creating Python tuple from runtime exception arguments.1",@object
	.p2align	4, 0x0
".const.Error creating Python tuple from runtime exception arguments.1":
	.asciz	"Error creating Python tuple from runtime exception arguments"
	.size	".const.Error creating Python tuple from runtime exception arguments.1", 61

	.type	".const.<numba.core.cpu.CPUContext>",@object
	.p2align	4, 0x0
".const.<numba.core.cpu.CPUContext>":
	.asciz	"<numba.core.cpu.CPUContext>"
	.size	".const.<numba.core.cpu.CPUContext>", 28

	.type	_ZN08NumbaEnv7adtrans7targets11cpu_runtime9tape_takeB3v15B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5d26Literal_5bint_5d_281024_2918class_28float64_29,@object
	.comm	_ZN08NumbaEnv7adtrans7targets11cpu_runtime9tape_takeB3v15B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5d26Literal_5bint_5d_281024_2918class_28float64_29,8,8
	.type	_ZN08NumbaEnv5numba2np8arrayobj11ol_np_empty12_3clocals_3e4implB3v16B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dEx18class_28float64_29,@object
	.comm	_ZN08NumbaEnv5numba2np8arrayobj11ol_np_empty12_3clocals_3e4implB3v16B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dEx18class_28float64_29,8,8
	.type	_ZN08NumbaEnv5numba5typed10listobject12impl_getitem12_3clocals_3e21integer_non_none_implB3v17B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx,@object
	.comm	_ZN08NumbaEnv5numba5typed10listobject12impl_getitem12_3clocals_3e21integer_non_none_implB3v17B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx,8,8
	.type	.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910,@object
	.p2align	4, 0x0
.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910:
	.ascii	"\200\004\225\227\000\000\000\000\000\000\000\214\bbuiltins\224\214\nIndexError\224\223\224\214\027list index out of range\224\205\224\214\fhandle_index\224\214G/work/main/.venv/lib/python3.11/site-packages/numba/typed/listobject.py\224M\226\002\207\224\207\224."
	.size	.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910, 162

	.type	.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910.sha1,@object
	.p2align	4, 0x0
.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910.sha1:
	.ascii	"$\266\032=\350.BmM\253#\027\022\201O\263\326\n\231\020"
	.size	.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910.sha1, 20

	.type	.const.picklebuf.24b61a3de82e426d4dab231712814fb3d60a9910,@object
	.p2align	4, 0x0
.const.picklebuf.24b61a3de82e426d4dab231712814fb3d60a9910:
	.quad	.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910
	.long	162
	.zero	4
	.quad	.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.24b61a3de82e426d4dab231712814fb3d60a9910, 40

	.type	_ZN08NumbaEnv5numba2np8arrayobj11ol_np_empty12_3clocals_3e4implB2v2B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dEx48omitted_28default_3d_3cclass_20_27float_27_3e_29,@object
	.comm	_ZN08NumbaEnv5numba2np8arrayobj11ol_np_empty12_3clocals_3e4implB2v2B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dEx48omitted_28default_3d_3cclass_20_27float_27_3e_29,8,8
	.type	.const.pickledata.331b8563bdb9dac81b38422273052c486fc1706b,@object
	.p2align	4, 0x0
.const.pickledata.331b8563bdb9dac81b38422273052c486fc1706b:
	.ascii	"\200\004\225B\000\000\000\000\000\000\000\214\bbuiltins\224\214\nValueError\224\223\224\214\037negative dimensions not allowed\224\205\224N\207\224."
	.size	.const.pickledata.331b8563bdb9dac81b38422273052c486fc1706b, 77

	.type	.const.pickledata.331b8563bdb9dac81b38422273052c486fc1706b.sha1,@object
	.p2align	4, 0x0
.const.pickledata.331b8563bdb9dac81b38422273052c486fc1706b.sha1:
	.ascii	"3\033\205c\275\271\332\310\0338B\"s\005,Ho\301pk"
	.size	.const.pickledata.331b8563bdb9dac81b38422273052c486fc1706b.sha1, 20

	.type	.const.picklebuf.331b8563bdb9dac81b38422273052c486fc1706b,@object
	.p2align	4, 0x0
.const.picklebuf.331b8563bdb9dac81b38422273052c486fc1706b:
	.quad	.const.pickledata.331b8563bdb9dac81b38422273052c486fc1706b
	.long	77
	.zero	4
	.quad	.const.pickledata.331b8563bdb9dac81b38422273052c486fc1706b.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.331b8563bdb9dac81b38422273052c486fc1706b, 40

	.type	.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57,@object
	.p2align	4, 0x0
.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57:
	.ascii	"\200\004\225~\000\000\000\000\000\000\000\214\bbuiltins\224\214\nValueError\224\223\224\214[array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.\224\205\224N\207\224."
	.size	.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57, 137

	.type	.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57.sha1,@object
	.p2align	4, 0x0
.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57.sha1:
	.ascii	"X\341N\314\265\007\261\340 i\201t\002#\346\205\313\214<W"
	.size	.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57.sha1, 20

	.type	.const.picklebuf.58e14eccb507b1e0206981740223e685cb8c3c57,@object
	.p2align	4, 0x0
.const.picklebuf.58e14eccb507b1e0206981740223e685cb8c3c57:
	.quad	.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57
	.long	137
	.zero	4
	.quad	.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.58e14eccb507b1e0206981740223e685cb8c3c57, 40

	.type	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209,@object
	.p2align	4, 0x0
.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209:
	.ascii	"\200\004\225K\000\000\000\000\000\000\000\214\bbuiltins\224\214\013MemoryError\224\223\224\214'Allocation failed (probably too large).\224\205\224N\207\224."
	.size	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209, 86

	.type	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.sha1,@object
	.p2align	4, 0x0
.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.sha1:
	.ascii	"\272(\235\201\360\\p \363G|\025sH\004\337e\253\342\t"
	.size	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.sha1, 20

	.type	.const.picklebuf.ba289d81f05c7020f3477c15734804df65abe209,@object
	.p2align	4, 0x0
.const.picklebuf.ba289d81f05c7020f3477c15734804df65abe209:
	.quad	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209
	.long	86
	.zero	4
	.quad	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.ba289d81f05c7020f3477c15734804df65abe209, 40

	.type	_ZN08NumbaEnv5numba2np8arrayobj16ol_np_zeros_like12_3clocals_3e4implB2v5B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE5ArrayIdLi1E1C7mutable7alignedE27omitted_28default_3dNone_29,@object
	.comm	_ZN08NumbaEnv5numba2np8arrayobj16ol_np_zeros_like12_3clocals_3e4implB2v5B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE5ArrayIdLi1E1C7mutable7alignedE27omitted_28default_3dNone_29,8,8
	.type	_ZN08NumbaEnv5numba2np8arrayobj16ol_np_empty_like12_3clocals_3e4implB2v6B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE5ArrayIdLi1E1C7mutable7alignedEv,@object
	.comm	_ZN08NumbaEnv5numba2np8arrayobj16ol_np_empty_like12_3clocals_3e4implB2v6B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE5ArrayIdLi1E1C7mutable7alignedEv,8,8
	.type	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.17,@object
	.p2align	4, 0x0
.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.17:
	.ascii	"\200\004\225K\000\000\000\000\000\000\000\214\bbuiltins\224\214\013MemoryError\224\223\224\214'Allocation failed (probably too large).\224\205\224N\207\224."
	.size	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.17, 86

	.type	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.sha1.18,@object
	.p2align	4, 0x0
.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.sha1.18:
	.ascii	"\272(\235\201\360\\p \363G|\025sH\004\337e\253\342\t"
	.size	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.sha1.18, 20

	.type	.const.picklebuf.ba289d81f05c7020f3477c15734804df65abe209.13,@object
	.p2align	4, 0x0
.const.picklebuf.ba289d81f05c7020f3477c15734804df65abe209.13:
	.quad	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.17
	.long	86
	.zero	4
	.quad	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.sha1.18
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.ba289d81f05c7020f3477c15734804df65abe209.13, 40

	.type	_ZN08NumbaEnv5numba2np8arrayobj18ol_array_zero_fill12_3clocals_3e4implB2v7B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE5ArrayIdLi1E1C7mutable7alignedE,@object
	.comm	_ZN08NumbaEnv5numba2np8arrayobj18ol_array_zero_fill12_3clocals_3e4implB2v7B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE5ArrayIdLi1E1C7mutable7alignedE,8,8
	.type	_ZN08NumbaEnv5numba7cpython8builtins6ol_max12_3clocals_3e4implB2v8B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE15StarArgUniTupleIxLi2EE,@object
	.comm	_ZN08NumbaEnv5numba7cpython8builtins6ol_max12_3clocals_3e4implB2v8B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE15StarArgUniTupleIxLi2EE,8,8
	.type	_ZN08NumbaEnv7adtrans7targets11cpu_runtime9tape_growB3v24B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx,@object
	.comm	_ZN08NumbaEnv7adtrans7targets11cpu_runtime9tape_growB3v24B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx,8,8
	.type	.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57.25,@object
	.p2align	4, 0x0
.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57.25:
	.ascii	"\200\004\225~\000\000\000\000\000\000\000\214\bbuiltins\224\214\nValueError\224\223\224\214[array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.\224\205\224N\207\224."
	.size	.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57.25, 137

	.type	.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57.sha1.26,@object
	.p2align	4, 0x0
.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57.sha1.26:
	.ascii	"X\341N\314\265\007\261\340 i\201t\002#\346\205\313\214<W"
	.size	.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57.sha1.26, 20

	.type	.const.picklebuf.58e14eccb507b1e0206981740223e685cb8c3c57.24,@object
	.p2align	4, 0x0
.const.picklebuf.58e14eccb507b1e0206981740223e685cb8c3c57.24:
	.quad	.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57.25
	.long	137
	.zero	4
	.quad	.const.pickledata.58e14eccb507b1e0206981740223e685cb8c3c57.sha1.26
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.58e14eccb507b1e0206981740223e685cb8c3c57.24, 40

	.type	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.27,@object
	.p2align	4, 0x0
.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.27:
	.ascii	"\200\004\225K\000\000\000\000\000\000\000\214\bbuiltins\224\214\013MemoryError\224\223\224\214'Allocation failed (probably too large).\224\205\224N\207\224."
	.size	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.27, 86

	.type	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.sha1.28,@object
	.p2align	4, 0x0
.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.sha1.28:
	.ascii	"\272(\235\201\360\\p \363G|\025sH\004\337e\253\342\t"
	.size	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.sha1.28, 20

	.type	.const.picklebuf.ba289d81f05c7020f3477c15734804df65abe209.23,@object
	.p2align	4, 0x0
.const.picklebuf.ba289d81f05c7020f3477c15734804df65abe209.23:
	.quad	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.27
	.long	86
	.zero	4
	.quad	.const.pickledata.ba289d81f05c7020f3477c15734804df65abe209.sha1.28
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.ba289d81f05c7020f3477c15734804df65abe209.23, 40

	.type	_ZN08NumbaEnv7adtrans7targets11cpu_runtime15tape_push_arrayB3v35B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE,@object
	.comm	_ZN08NumbaEnv7adtrans7targets11cpu_runtime15tape_push_arrayB3v35B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE,8,8
	.type	_ZN08NumbaEnv5numba2np8arrayobj23array_ascontiguousarray12_3clocals_3e4implB3v29B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE5ArrayIdLi1E1C7mutable7alignedE,@object
	.comm	_ZN08NumbaEnv5numba2np8arrayobj23array_ascontiguousarray12_3clocals_3e4implB3v29B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE5ArrayIdLi1E1C7mutable7alignedE,8,8
	.type	_ZN08NumbaEnv5numba2np8arrayobj11array_ravel12_3clocals_3e10imp_nocopyB3v30B42c8tJTC_2fWQA93W1AaAIYBPIqRBFCjDSZRVAJmaQIAE5ArrayIdLi1E1C7mutable7alignedE,@object
	.comm	_ZN08NumbaEnv5numba2np8arrayobj11array_ravel12_3clocals_3e10imp_nocopyB3v30B42c8tJTC_2fWQA93W1AaAIYBPIqRBFCjDSZRVAJmaQIAE5ArrayIdLi1E1C7mutable7alignedE,8,8
	.type	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c,@object
	.p2align	4, 0x0
.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c:
	.ascii	"\200\004\225H\000\000\000\000\000\000\000\214\bbuiltins\224\214\023NotImplementedError\224\223\224\214\034incompatible shape for array\224\205\224N\207\224."
	.size	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c, 83

	.type	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.sha1,@object
	.p2align	4, 0x0
.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.sha1:
	.ascii	"\334;\272\203,L7X'=\r\262K\203V\221\257?1l"
	.size	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.sha1, 20

	.type	.const.picklebuf.dc3bba832c4c3758273d0db24b835691af3f316c,@object
	.p2align	4, 0x0
.const.picklebuf.dc3bba832c4c3758273d0db24b835691af3f316c:
	.quad	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c
	.long	83
	.zero	4
	.quad	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.dc3bba832c4c3758273d0db24b835691af3f316c, 40

	.type	_ZN08NumbaEnv7adtrans7targets11cpu_runtime5_growB3v25B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx,@object
	.comm	_ZN08NumbaEnv7adtrans7targets11cpu_runtime5_growB3v25B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx,8,8
	.type	_ZN08NumbaEnv5numba7cpython8builtins6ol_max12_3clocals_3e4implB3v26B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE15StarArgUniTupleIxLi3EE,@object
	.comm	_ZN08NumbaEnv5numba7cpython8builtins6ol_max12_3clocals_3e4implB3v26B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE15StarArgUniTupleIxLi3EE,8,8
	.type	_ZN08NumbaEnv5numba2np8arrayobj11ol_np_empty12_3clocals_3e4implB3v27B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dEx18dtype_28float64_29,@object
	.comm	_ZN08NumbaEnv5numba2np8arrayobj11ol_np_empty12_3clocals_3e4implB3v27B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dEx18dtype_28float64_29,8,8
	.type	_ZN08NumbaEnv5numba2np8arrayobj15_call_allocatorB2v3B42c8tJTC_2fWQA93W1AaAIYBPIqRBFCjDSZRVAJmaQIAEN29typeref_5b_3cclass_20_27numba4core5types8npytypes14Array_27_3e_5dExj,@object
	.comm	_ZN08NumbaEnv5numba2np8arrayobj15_call_allocatorB2v3B42c8tJTC_2fWQA93W1AaAIYBPIqRBFCjDSZRVAJmaQIAEN29typeref_5b_3cclass_20_27numba4core5types8npytypes14Array_27_3e_5dExj,8,8
	.type	_ZN08NumbaEnv5numba2np8arrayobj18_ol_array_allocate12_3clocals_3e4implB2v4B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dEN29typeref_5b_3cclass_20_27numba4core5types8npytypes14Array_27_3e_5dExj,@object
	.comm	_ZN08NumbaEnv5numba2np8arrayobj18_ol_array_allocate12_3clocals_3e4implB2v4B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dEN29typeref_5b_3cclass_20_27numba4core5types8npytypes14Array_27_3e_5dExj,8,8
	.type	_ZN08NumbaEnv5numba7cpython7numbers14int_power_impl12_3clocals_3e9int_powerB2v9B42c8tJTC_2fWQA93W1AaAIYBPIqRBFCjDSZRVAJmaQIAEdx,@object
	.comm	_ZN08NumbaEnv5numba7cpython7numbers14int_power_impl12_3clocals_3e9int_powerB2v9B42c8tJTC_2fWQA93W1AaAIYBPIqRBFCjDSZRVAJmaQIAEdx,8,8
	.type	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.36,@object
	.p2align	4, 0x0
.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.36:
	.ascii	"\200\004\225H\000\000\000\000\000\000\000\214\bbuiltins\224\214\023NotImplementedError\224\223\224\214\034incompatible shape for array\224\205\224N\207\224."
	.size	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.36, 83

	.type	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.sha1.37,@object
	.p2align	4, 0x0
.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.sha1.37:
	.ascii	"\334;\272\203,L7X'=\r\262K\203V\221\257?1l"
	.size	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.sha1.37, 20

	.type	.const.picklebuf.dc3bba832c4c3758273d0db24b835691af3f316c.35,@object
	.p2align	4, 0x0
.const.picklebuf.dc3bba832c4c3758273d0db24b835691af3f316c.35:
	.quad	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.36
	.long	83
	.zero	4
	.quad	.const.pickledata.dc3bba832c4c3758273d0db24b835691af3f316c.sha1.37
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.dc3bba832c4c3758273d0db24b835691af3f316c.35, 40

	.type	_ZN08NumbaEnv7adtrans7targets11cpu_runtime9tape_viewB3v32B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE,@object
	.comm	_ZN08NumbaEnv7adtrans7targets11cpu_runtime9tape_viewB3v32B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE5ArrayIdLi1E1C7mutable7alignedEx5ArrayIdLi1E1C7mutable7alignedE,8,8
	.type	_ZN08NumbaEnv5numba2np8arrayobj23normalize_reshape_valueB3v31B42c8tJTC_2fWQA93W1AaAIYBPIqRBFCjDSZRVAJmaQIAEy5ArrayIxLi1E1C7mutable7alignedE,@object
	.comm	_ZN08NumbaEnv5numba2np8arrayobj23normalize_reshape_valueB3v31B42c8tJTC_2fWQA93W1AaAIYBPIqRBFCjDSZRVAJmaQIAEy5ArrayIxLi1E1C7mutable7alignedE,8,8
	.type	.const.pickledata.927d4da63c1ea9b4617659aac5d190484416c0ea,@object
	.p2align	4, 0x0
.const.pickledata.927d4da63c1ea9b4617659aac5d190484416c0ea:
	.ascii	"\200\004\225\257\000\000\000\000\000\000\000\214\bbuiltins\224\214\nValueError\224\223\224\214)total size of new array must be unchanged\224\205\224\214\027normalize_reshape_value\224\214B/work/main/.venv/lib/python3.11/site-packages/numba/np/arrayobj.py\224M\241\t\207\224\207\224."
	.size	.const.pickledata.927d4da63c1ea9b4617659aac5d190484416c0ea, 186

	.type	.const.pickledata.927d4da63c1ea9b4617659aac5d190484416c0ea.sha1,@object
	.p2align	4, 0x0
.const.pickledata.927d4da63c1ea9b4617659aac5d190484416c0ea.sha1:
	.ascii	"\222}M\246<\036\251\264avY\252\305\321\220HD\026\300\352"
	.size	.const.pickledata.927d4da63c1ea9b4617659aac5d190484416c0ea.sha1, 20

	.type	.const.picklebuf.927d4da63c1ea9b4617659aac5d190484416c0ea,@object
	.p2align	4, 0x0
.const.picklebuf.927d4da63c1ea9b4617659aac5d190484416c0ea:
	.quad	.const.pickledata.927d4da63c1ea9b4617659aac5d190484416c0ea
	.long	186
	.zero	4
	.quad	.const.pickledata.927d4da63c1ea9b4617659aac5d190484416c0ea.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.927d4da63c1ea9b4617659aac5d190484416c0ea, 40

	.type	_ZN08NumbaEnv7adtrans7targets11cpu_runtime9tape_keepB3v33B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5d5ArrayIdLi1E1C7mutable7alignedE,@object
	.comm	_ZN08NumbaEnv7adtrans7targets11cpu_runtime9tape_keepB3v33B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5d5ArrayIdLi1E1C7mutable7alignedE,8,8
	.type	_ZN08NumbaEnv5numba5typed10listobject12impl_setitem12_3clocals_3e12impl_integerB3v34B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx5ArrayIdLi1E1C7mutable7alignedE,@object
	.comm	_ZN08NumbaEnv5numba5typed10listobject12impl_setitem12_3clocals_3e12impl_integerB3v34B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx5ArrayIdLi1E1C7mutable7alignedE,8,8
	.type	.const.pickledata.d093d127640c6bcc6275f7ae3b53ccbac2650a48,@object
	.p2align	4, 0x0
.const.pickledata.d093d127640c6bcc6275f7ae3b53ccbac2650a48:
	.ascii	"\200\004\225\221\000\000\000\000\000\000\000\214\bbuiltins\224\214\nValueError\224\223\224\214\021list is immutable\224\205\224\214\fimpl_integer\224\214G/work/main/.venv/lib/python3.11/site-packages/numba/typed/listobject.py\224MN\003\207\224\207\224."
	.size	.const.pickledata.d093d127640c6bcc6275f7ae3b53ccbac2650a48, 156

	.type	.const.pickledata.d093d127640c6bcc6275f7ae3b53ccbac2650a48.sha1,@object
	.p2align	4, 0x0
.const.pickledata.d093d127640c6bcc6275f7ae3b53ccbac2650a48.sha1:
	.ascii	"\320\223\321'd\fk\314bu\367\256;S\314\272\302e\nH"
	.size	.const.pickledata.d093d127640c6bcc6275f7ae3b53ccbac2650a48.sha1, 20

	.type	.const.picklebuf.d093d127640c6bcc6275f7ae3b53ccbac2650a48,@object
	.p2align	4, 0x0
.const.picklebuf.d093d127640c6bcc6275f7ae3b53ccbac2650a48:
	.quad	.const.pickledata.d093d127640c6bcc6275f7ae3b53ccbac2650a48
	.long	156
	.zero	4
	.quad	.const.pickledata.d093d127640c6bcc6275f7ae3b53ccbac2650a48.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.d093d127640c6bcc6275f7ae3b53ccbac2650a48, 40

	.type	.const.pickledata.33b886e8419a5b510fb28d56b115d6f0c8b69a74,@object
	.p2align	4, 0x0
.const.pickledata.33b886e8419a5b510fb28d56b115d6f0c8b69a74:
	.ascii	"\200\004\225\247\000\000\000\000\000\000\000\214\bbuiltins\224\214\016AssertionError\224\223\224\214#internal list error during settitem\224\205\224\214\fimpl_integer\224\214G/work/main/.venv/lib/python3.11/site-packages/numba/typed/listobject.py\224MP\003\207\224\207\224."
	.size	.const.pickledata.33b886e8419a5b510fb28d56b115d6f0c8b69a74, 178

	.type	.const.pickledata.33b886e8419a5b510fb28d56b115d6f0c8b69a74.sha1,@object
	.p2align	4, 0x0
.const.pickledata.33b886e8419a5b510fb28d56b115d6f0c8b69a74.sha1:
	.ascii	"3\270\206\350A\232[Q\017\262\215V\261\025\326\360\310\266\232t"
	.size	.const.pickledata.33b886e8419a5b510fb28d56b115d6f0c8b69a74.sha1, 20

	.type	.const.picklebuf.33b886e8419a5b510fb28d56b115d6f0c8b69a74,@object
	.p2align	4, 0x0
.const.picklebuf.33b886e8419a5b510fb28d56b115d6f0c8b69a74:
	.quad	.const.pickledata.33b886e8419a5b510fb28d56b115d6f0c8b69a74
	.long	178
	.zero	4
	.quad	.const.pickledata.33b886e8419a5b510fb28d56b115d6f0c8b69a74.sha1
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.33b886e8419a5b510fb28d56b115d6f0c8b69a74, 40

	.type	_ZN08NumbaEnv5numba5typed10listobject12handle_indexB3v18B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx,@object
	.comm	_ZN08NumbaEnv5numba5typed10listobject12handle_indexB3v18B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5dx,8,8
	.type	.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910.41,@object
	.p2align	4, 0x0
.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910.41:
	.ascii	"\200\004\225\227\000\000\000\000\000\000\000\214\bbuiltins\224\214\nIndexError\224\223\224\214\027list index out of range\224\205\224\214\fhandle_index\224\214G/work/main/.venv/lib/python3.11/site-packages/numba/typed/listobject.py\224M\226\002\207\224\207\224."
	.size	.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910.41, 162

	.type	.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910.sha1.42,@object
	.p2align	4, 0x0
.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910.sha1.42:
	.ascii	"$\266\032=\350.BmM\253#\027\022\201O\263\326\n\231\020"
	.size	.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910.sha1.42, 20

	.type	.const.picklebuf.24b61a3de82e426d4dab231712814fb3d60a9910.40,@object
	.p2align	4, 0x0
.const.picklebuf.24b61a3de82e426d4dab231712814fb3d60a9910.40:
	.quad	.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910.41
	.long	162
	.zero	4
	.quad	.const.pickledata.24b61a3de82e426d4dab231712814fb3d60a9910.sha1.42
	.quad	0
	.long	0
	.zero	4
	.size	.const.picklebuf.24b61a3de82e426d4dab231712814fb3d60a9910.40, 40

	.type	_ZN08NumbaEnv5numba5typed10listobject8impl_len12_3clocals_3e4implB3v19B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5d,@object
	.comm	_ZN08NumbaEnv5numba5typed10listobject8impl_len12_3clocals_3e4implB3v19B42c8tJTIeFIjxB2IKSgI4CrvQClcaMQ5hEEUSJJgA_3dE47ListType_5barray_28float64_2c_201d_2c_20C_29_5d,8,8
	.section	".note.GNU-stack","",@progbits
