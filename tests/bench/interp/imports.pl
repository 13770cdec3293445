# SPDX-License-Identifier: GPL-2.0
# tests/bench/interp/imports.pl: the start of a realistic Perl program, for
# the benchmark (tests/bench/guest-bench): the modules a command-line tool
# with files, sockets, serialisation and encodings uses, then its option
# parsing, and nothing else.  With --count it prints how many code files
# the uses read (%INC: each one file opened by require) and how many
# shared objects XSLoader/DynaLoader loaded.
use strict;
use warnings;
use Carp;
use Cwd;
use Data::Dumper;
use Digest::MD5;
use Digest::SHA;
use Encode;
use Errno;
use Fcntl;
use File::Basename;
use File::Copy;
use File::Find;
use File::Path;
use File::Spec;
use File::Temp;
use Getopt::Long;
use IO::File;
use IO::Handle;
use IO::Socket;
use JSON::PP;
use List::Util;
use MIME::Base64;
use POSIX;
use Scalar::Util;
use Storable;
use Sys::Hostname;
use Term::ANSIColor;
use Text::Wrap;
use Time::HiRes;
use Time::Local;

my $count = 0;
GetOptions('count' => \$count) or exit 2;
if ($count) {
	my $so = () = grep { /\.so$/ } (@DynaLoader::dl_shared_objects);
	printf "code_files=%d shared_objects=%d\n", scalar(keys %INC), $so;
}
