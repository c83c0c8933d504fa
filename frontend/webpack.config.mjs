// Production build → dist/ (index.html + hashed assets); `npm run dev` serves on :5173 and
// proxies the API and share pages to the Rust server on :8080.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';

const root = path.dirname(fileURLToPath(import.meta.url));
const backend = process.env.GIFSHELF_DEV_BACKEND ?? 'http://127.0.0.1:8080';
const require = createRequire(import.meta.url);
const swaggerUi = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const reactRouter = path.dirname(require.resolve('react-router/package.json'));

/** Copies Swagger UI into dist/api-docs/ for the server's API reference page at /api/docs. */
class ApiReferenceAssets {
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('ApiReferenceAssets', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'ApiReferenceAssets', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js']) {
            const source = fs.readFileSync(path.join(swaggerUi, file), 'utf8').replace(
              /\n\/[*/]# sourceMappingURL=.*$/m,
              '',
            );
            compilation.emitAsset(`api-docs/${file}`, new sources.RawSource(source), { minimized: true });
          }
        },
      );
    });
  }
}

export default (_env, argv) => {
  const production = argv.mode === 'production';
  return {
    mode: production ? 'production' : 'development',
    entry: path.join(root, 'src/main.tsx'),
    output: {
      path: path.join(root, 'dist'),
      publicPath: '/',
      filename: production ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      clean: true,
    },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      alias: {
        '@': path.join(root, 'src'),
        // react-router's package exports name only its development build (dev warnings on);
        // production builds take the production one, which is the same code without them.
        ...(production && {
          'react-router$': path.join(reactRouter, 'dist/production/index.mjs'),
          'react-router/dom$': path.join(reactRouter, 'dist/production/dom-export.mjs'),
        }),
      },
    },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules/,
          loader: 'esbuild-loader',
          options: { target: 'es2020', jsx: 'automatic' },
        },
        {
          test: /\.css$/,
          use: [production ? MiniCssExtractPlugin.loader : 'style-loader', 'css-loader'],
        },
        { test: /\.(png|svg|ico|webp|gif)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      new HtmlWebpackPlugin({ template: path.join(root, 'public/index.html') }),
      new ApiReferenceAssets(),
      ...(production
        ? [new MiniCssExtractPlugin({ filename: 'assets/[name].[contenthash:8].css' })]
        : []),
    ],
    optimization: { splitChunks: { chunks: 'all' } },
    performance: { hints: false },
    devServer: {
      port: 5173,
      host: '127.0.0.1',
      historyApiFallback: true,
      hot: true,
      proxy: [{ context: ['/api/', '/s/'], target: backend, changeOrigin: false }],
    },
  };
};
