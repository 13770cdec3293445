#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/bench/interp/page-app.sh DIR [N]: a web page the size of a small
# framework's, for the benchmark's PHP rows (interp-guest.sh): DIR/page.php
# registers an autoloader, requires its configuration, makes an object of
# each of N generated classes (default 200) in DIR/app/Part/, each with
# its own file, which the autoloader requires (with Base and Node, their
# parent and interface: N + 2 files), and renders them through a layout
# it includes: N + 5 code files compiled in one run, as a framework's
# request compiles its router, container, controllers, models and views
# ("php page.php --count" prints how many).  Every file gets the x bit:
# the file policy lets them run.
set -eu

dir=$1
n=${2:-200}
app=$dir/app
mkdir -p "$app/Part"

cat >"$app/Part/Node.php" <<'PHP'
<?php
declare(strict_types=1);

namespace App\Part;

interface Node
{
	public function name(): string;

	public function render(array $ctx): string;
}
PHP

cat >"$app/Part/Base.php" <<'PHP'
<?php
declare(strict_types=1);

namespace App\Part;

abstract class Base implements Node
{
	protected array $seen = [];

	public function __construct(protected readonly int $id)
	{
	}

	protected function cell(string $key, mixed $value): string
	{
		$this->seen[$key] = true;
		return sprintf('<td class="%s">%s</td>', htmlspecialchars($key),
			       htmlspecialchars((string) $value));
	}
}
PHP

for ((i = 0; i < n; i++)); do
	cat >"$app/Part/C$i.php" <<PHP
<?php
declare(strict_types=1);

namespace App\\Part;

/* Generated: class $i of $n of the benchmark's page. */
final class C$i extends Base
{
	private const FIELDS = ['title', 'owner', 'size', 'state'];

	public function __construct()
	{
		parent::__construct($i);
	}

	public function name(): string
	{
		return 'C$i';
	}

	public function render(array \$ctx): string
	{
		\$row = '';
		foreach (self::FIELDS as \$f)
			\$row .= \$this->cell(\$f, \$ctx[\$f] ?? \$this->id * strlen(\$f));
		return '<tr id="' . \$this->name() . '">' . \$row . '</tr>';
	}
}
PHP
done

cat >"$app/config.php" <<PHP
<?php
return ['classes' => $n, 'title' => 'benchmark', 'owner' => 'omayexec'];
PHP

cat >"$app/layout.php" <<'PHP'
<!DOCTYPE html>
<html><head><title><?= htmlspecialchars($config['title']) ?></title></head>
<body><table>
<?= implode("\n", $rows) ?>
</table></body></html>
PHP

cat >"$dir/page.php" <<'PHP'
<?php
declare(strict_types=1);

spl_autoload_register(function (string $class): void {
	require __DIR__ . '/app/' . str_replace(['App\\', '\\'], ['', '/'], $class) . '.php';
});
$config = require __DIR__ . '/app/config.php';
$rows = [];
for ($i = 0; $i < $config['classes']; $i++) {
	$class = "App\\Part\\C$i";
	$rows[] = (new $class())->render($config);
}
ob_start();
include __DIR__ . '/app/layout.php';
$html = ob_get_clean();
if (($argv[1] ?? '') === '--count')
	echo count(get_included_files()), "\n";
else
	echo strlen($html), " bytes\n";
PHP
chmod -R a+rX,a+x "$dir/page.php" "$app"
